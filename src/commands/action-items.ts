// mtg action-items list|create|update: the action items across the user's meetings.

import {
  ACTION_ITEM_STATUS_FILTERS,
  ACTION_ITEM_STATUSES,
  type ActionItemStatus,
  ASSIGNEE_WORDS,
  type AssigneeType,
} from '../api/assumptions.js';
import type { ActionItemUpdateBody } from '../api/endpoints.js';
import { UsageError } from '../api/errors.js';
import { checkOutputOptions, DEFAULT_BULK_CONCURRENCY, NO_BODY } from '../cli/bulk.js';
import type { Context } from '../cli/context.js';
import { DRY_RUN_OPTION, isDryRun, printDryRun } from '../cli/dry-run.js';
import { listValues, oneOf, positiveId, positiveIds, readStdinIds } from '../cli/input.js';
import type { GroupSpec, Opts } from '../cli/spec.js';

const ASSIGNEE_CHOICES = [...Object.keys(ASSIGNEE_WORDS), 'PROFILE_ID'];

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** --assignee: a word (case-insensitive) or a profile ID. Omitted: nothing sent (the server's default is Me). */
export function assigneeFilter(value: string | undefined): {
  assigneeType?: AssigneeType;
  assigneeProfileId?: number;
} {
  if (value === undefined) return {};
  const word = ASSIGNEE_WORDS[value.trim().toLowerCase()];
  if (word) return { assigneeType: word };
  if (/^\s*-?\d+\s*$/.test(value)) {
    return { assigneeType: 'Profile', assigneeProfileId: positiveId(value, '--assignee') };
  }
  throw new UsageError(
    `Invalid --assignee "${value}". Valid values: ${Object.keys(ASSIGNEE_WORDS).join(', ')} or a profile ID`,
  );
}

function listQuery(opts: Opts) {
  const assignee = assigneeFilter(str(opts.assignee));
  const team = str(opts.assigneeTeam);
  const status = str(opts.status);
  const attendees = positiveIds(listValues(opts.attendee), '--attendee');
  const tags = positiveIds(listValues(opts.tag), '--tag');
  return {
    // A team filter alone means "items assigned to that team's members", not "my items in that team".
    ...(team !== undefined && str(opts.assignee) === undefined ? { assigneeType: 'Anyone' as const } : {}),
    ...assignee,
    assigneeTeamId: team === undefined ? undefined : positiveId(team, '--assignee-team'),
    status: status === undefined ? undefined : oneOf(status, ACTION_ITEM_STATUS_FILTERS, '--status'),
    attendeeProfileIds: attendees.length ? attendees.map(String) : undefined,
    tagIds: tags.length ? tags.map(String) : undefined,
  };
}

/** The update body from the flags; nothing to change is a usage error. */
export function updateBody(opts: Opts): ActionItemUpdateBody {
  const body: ActionItemUpdateBody = {};
  const title = str(opts.title);
  if (title !== undefined) {
    if (title.trim() === '') throw new UsageError('--title must not be empty');
    body.title = title;
  }
  const description = str(opts.description);
  if (description !== undefined) body.description = description;
  const status = str(opts.status);
  if (status !== undefined) body.status = oneOf<ActionItemStatus>(status, ACTION_ITEM_STATUSES, '--status');
  const assignee = str(opts.assignee);
  if (assignee !== undefined) {
    body.assigneeProfileId =
      assignee.trim().toLowerCase() === 'none' ? null : positiveId(assignee, '--assignee');
  }
  if (Object.keys(body).length === 0) {
    throw new UsageError('nothing to update: give --title, --description, --status or --assignee');
  }
  return body;
}

/** IDs from the arguments and --stdin, validated, duplicates dropped (first occurrence kept). */
async function actionItemIds(ctx: Context, args: string[], fromStdin: boolean): Promise<number[]> {
  const raw = [...args, ...(fromStdin ? await readStdinIds(ctx.io.in) : [])];
  const ids = [...new Set(positiveIds(raw, 'action item ID'))];
  if (ids.length === 0) {
    throw new UsageError('no action item IDs given: pass them as arguments or pipe them in with --stdin');
  }
  return ids;
}

const noun = (n: number) => (n === 1 ? 'action item' : 'action items');

export const actionItemsGroup: GroupSpec = {
  name: 'action-items',
  aliases: ['action-item'],
  summary: 'List, create and update action items',
  commands: [
    {
      name: 'list',
      list: true,
      summary: 'List action items across your meetings (every page)',
      description:
        'List action items across your meetings, following every page. Without --assignee the server ' +
        'shows your own items; without --status only PENDING ones. --assignee-team alone looks at ' +
        'everyone (assigneeType Anyone) in that team.',
      options: [
        {
          flags: '--assignee <who>',
          description: `whose items: ${Object.keys(ASSIGNEE_WORDS).join('|')}|PROFILE_ID (default: me, the server's default)`,
          choices: ASSIGNEE_CHOICES,
        },
        { flags: '--assignee-team <id>', description: 'only items assigned to members of this team' },
        {
          flags: '--status <status>',
          description: `${ACTION_ITEM_STATUS_FILTERS.join('|')} (default: PENDING, the server's default)`,
          choices: ACTION_ITEM_STATUS_FILTERS,
        },
        {
          flags: '--attendee <profile-id>',
          description: 'only items of meetings this person attended (repeatable, comma lists)',
          repeatable: true,
        },
        {
          flags: '--tag <id>',
          description: 'only items of meetings with this tag (repeatable, comma lists)',
          repeatable: true,
        },
      ],
      examples: [
        'mtg action-items list',
        'mtg action-items list --assignee anyone --status all --json',
        'mtg action-items list --assignee 12 --tag 3,7 --format csv -o items.csv',
      ],
      async run(ctx, _args, opts) {
        const query = listQuery(opts);
        const { runList } = await import('../cli/list.js');
        return runList(ctx, {
          listing: (source) => source.listActionItems(query),
          resource: 'actionItem',
          noun: ['action item', 'action items'],
          command: 'action-items list',
        });
      },
    },
    {
      name: 'create',
      summary: 'Create an action item (not linked to a meeting)',
      args: [{ name: 'TITLE', description: 'the title', required: true }],
      options: [
        { flags: '--description <text>', description: 'a longer description' },
        {
          flags: '--assignee <profile-id>',
          description: 'assign it to this profile (default: you, the server decides)',
        },
        DRY_RUN_OPTION,
      ],
      examples: [
        'mtg action-items create "Send the roadmap"',
        'mtg action-items create "Review the contract" --assignee 12 --description "Before Friday" --json',
        'mtg action-items create "Send the roadmap" --dry-run',
      ],
      async run(ctx, args, opts) {
        const title = String(args.TITLE ?? '');
        if (title.trim() === '') throw new UsageError('the title must not be empty');
        const description = str(opts.description);
        const assignee = str(opts.assignee);
        const body = {
          title,
          ...(description !== undefined ? { description } : {}),
          ...(assignee !== undefined ? { assigneeProfileId: positiveId(assignee, '--assignee') } : {}),
        };
        const { createActionItem, createActionItemRequest } = await import('../api/endpoints.js');
        if (isDryRun(opts)) return printDryRun(ctx, [createActionItemRequest(body)]);
        const { writeResult } = await import('../cli/list.js');
        await checkOutputOptions(ctx, 'actionItem');
        const created = await createActionItem(await ctx.client(), body);
        // A 2xx with no body: created, but there is nothing (not even an ID) to print.
        if (created === undefined) ctx.progress.note(`Created the action item; ${NO_BODY}`);
        else await writeResult(ctx, 'actionItem', created);
        return 0;
      },
    },
    {
      name: 'update',
      summary: 'Update one or many action items (concurrently, within the rate limit)',
      description:
        'Update the title, description, status or assignee of one or many action items. IDs come from ' +
        'the arguments and/or --stdin (one per line, NDJSON with "id", or tsv from `action-items list`). ' +
        `Up to ${DEFAULT_BULK_CONCURRENCY} requests are in flight at once, paced by the rate limit. ` +
        'The updated items go to stdout in input order, each failure to stderr; exit 6 when some failed.',
      args: [{ name: 'ID', description: 'action item IDs', variadic: true }],
      options: [
        { flags: '--stdin', description: 'also read IDs from stdin, one per line' },
        { flags: '--title <title>', description: 'new title' },
        { flags: '--description <text>', description: 'new description ("" clears it)' },
        { flags: '--status <status>', description: 'PENDING|DONE', choices: ACTION_ITEM_STATUSES },
        { flags: '--assignee <profile-id>', description: 'assign to this profile, or "none" to unassign' },
        DRY_RUN_OPTION,
      ],
      examples: [
        'mtg action-items update 42 --status done',
        'mtg action-items list --assignee me | mtg action-items update --stdin --status DONE',
        'mtg action-items update 42 43 --assignee none --dry-run',
      ],
      async run(ctx, args, opts) {
        const body = updateBody(opts);
        const ids = await actionItemIds(ctx, (args.ID as string[] | undefined) ?? [], !!opts.stdin);
        const { updateActionItem, updateActionItemRequest } = await import('../api/endpoints.js');
        if (isDryRun(opts))
          return printDryRun(
            ctx,
            ids.map((id) => updateActionItemRequest(id, body)),
          );
        const { runBulkCommand } = await import('../cli/bulk.js');
        const client = await ctx.client();
        return runBulkCommand(ctx, {
          items: ids,
          resource: 'actionItem',
          worker: async (id) => ({ id, item: await updateActionItem(client, id, body) }),
          // A 2xx with no body was applied: what is known is the ID.
          printed: (r) => [r.item ?? { id: r.id }],
          failureLine: (id, _index, message) => `action item ${id}: ${message}`,
          progressText: (settled) => `Updated ${settled} of ${ids.length} ${noun(ids.length)}`,
          summaryLine: (s, applied) => {
            const bodiless = applied.filter((r) => r.item === undefined).length;
            const line =
              `Updated ${s.ok} of ${s.total} ${noun(s.total)}${s.failed ? `; ${s.failed} failed` : ''}` +
              (bodiless ? ` (${NO_BODY} for ${bodiless})` : '');
            return s.skipped
              ? `Interrupted: ${line[0]!.toLowerCase()}${line.slice(1)}; ${s.skipped} not done`
              : line;
          },
        });
      },
    },
  ],
};
