// mtg action-items list: action items across the user's meetings, every page.

import { ACTION_ITEM_STATUS_FILTERS, ASSIGNEE_WORDS, type AssigneeType } from '../../api/assumptions.js';
import { UsageError } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';
import { listValues, oneOf, positiveId, positiveIds } from '../../cli/input.js';
import { runList } from '../../cli/list.js';
import type { Args, Opts } from '../../cli/spec.js';

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

export async function run(ctx: Context, _args: Args, opts: Opts): Promise<number> {
  const query = listQuery(opts);
  return runList(ctx, {
    listing: (source) => source.listActionItems(query),
    resource: 'actionItem',
    noun: ['action item', 'action items'],
    command: 'action-items list',
  });
}
