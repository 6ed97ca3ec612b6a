// mtg tags create|update|apply: manage tags and put them on meetings.

import { ApiError, UsageError } from '../api/errors.js';
import { checkOutputOptions, DEFAULT_BULK_CONCURRENCY, NO_BODY } from '../cli/bulk.js';
import type { Context } from '../cli/context.js';
import { DRY_RUN_OPTION, isDryRun, printDryRun } from '../cli/dry-run.js';
import { positiveId, readStdinIds, stringId } from '../cli/input.js';
import type { GroupSpec } from '../cli/spec.js';

/**
 * Meetings per PUT /tag request when tagging many. The spec sets no maximum; 100 keeps each body
 * small, and the batches go out concurrently through the bulk runner.
 */
export const TAG_APPLY_BATCH_SIZE = 100;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function tagName(value: string, what: string): string {
  if (value.trim() === '') throw new UsageError(`${what} must not be empty`);
  return value;
}

/** 409 from POST /tag or PUT /tag/{id}: say plainly which name is taken (still exit 1). */
function nameConflict(err: unknown, name: string): unknown {
  if (!(err instanceof ApiError) || err.status !== 409) return err;
  // A server message that names the tag says it already (often with the existing tag's id): once.
  const serverSaysIt = err.message.includes(`"${name}"`);
  return new ApiError(
    err.status,
    err.code,
    serverSaysIt ? err.message : `A tag named "${name}" already exists`,
    serverSaysIt ? err.issues : [...err.issues, { path: '', message: `server: ${err.message}` }],
    err.retryAfter,
    err.method,
    err.path,
  );
}

/** Meeting IDs from the arguments and --stdin, validated, duplicates dropped (first occurrence kept). */
async function meetingIds(ctx: Context, args: string[], fromStdin: boolean): Promise<string[]> {
  const raw = [...args, ...(fromStdin ? await readStdinIds(ctx.io.in) : [])];
  const ids = [...new Set(raw.map((id) => stringId(id, 'meeting ID')))];
  if (ids.length === 0) {
    throw new UsageError('no meeting IDs given: pass them after TAG_ID or pipe them in with --stdin');
  }
  return ids;
}

export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const meetingsNoun = (n: number) => (n === 1 ? 'meeting' : 'meetings');

export const tagsGroup: GroupSpec = {
  name: 'tags',
  aliases: ['tag'],
  summary: 'Create and update tags, and tag meetings',
  commands: [
    {
      name: 'create',
      summary: 'Create a tag (an existing name is a conflict error)',
      args: [{ name: 'NAME', description: 'the tag name (unique)', required: true }],
      options: [{ flags: '--description <text>', description: 'what the tag is for' }, DRY_RUN_OPTION],
      examples: [
        'mtg tags create "Customer calls"',
        'mtg tags create Hiring --description "Interviews" --json',
        'mtg tags create Hiring --dry-run',
      ],
      async run(ctx, args, opts) {
        const name = tagName(String(args.NAME ?? ''), 'the tag name');
        const description = str(opts.description);
        const body = { name, ...(description !== undefined ? { description } : {}) };
        const { createTag, createTagRequest } = await import('../api/endpoints.js');
        if (isDryRun(opts)) return printDryRun(ctx, [createTagRequest(body)]);
        await checkOutputOptions(ctx, 'tag');
        const client = await ctx.client();
        const tag = await createTag(client, body).catch((err: unknown) => {
          throw nameConflict(err, name);
        });
        const { writeResult } = await import('../cli/list.js');
        // A 2xx with no body: created, but the new tag's ID is not known.
        if (tag === undefined) ctx.progress.note(`Created tag "${name}"; ${NO_BODY}`);
        else await writeResult(ctx, 'tag', tag);
        return 0;
      },
    },
    {
      name: 'update',
      summary: 'Rename a tag or change its description',
      args: [{ name: 'TAG_ID', description: 'the tag to change', required: true }],
      options: [
        { flags: '--name <name>', description: 'new name' },
        { flags: '--description <text>', description: 'new description' },
        DRY_RUN_OPTION,
      ],
      examples: [
        'mtg tags update 7 --name "Customer calls"',
        'mtg tags update 7 --description "All external calls" --dry-run',
      ],
      async run(ctx, args, opts) {
        const tagId = positiveId(String(args.TAG_ID ?? ''), 'TAG_ID');
        const name = str(opts.name);
        const description = str(opts.description);
        if (name === undefined && description === undefined) {
          throw new UsageError('nothing to update: give --name or --description');
        }
        const body = {
          ...(name !== undefined ? { name: tagName(name, '--name') } : {}),
          ...(description !== undefined ? { description } : {}),
        };
        const { updateTag, updateTagRequest } = await import('../api/endpoints.js');
        if (isDryRun(opts)) return printDryRun(ctx, [updateTagRequest(tagId, body)]);
        await checkOutputOptions(ctx, 'tag');
        const tag = await updateTag(await ctx.client(), tagId, body).catch((err: unknown) => {
          throw nameConflict(err, name ?? '');
        });
        const { writeResult } = await import('../cli/list.js');
        if (tag === undefined) ctx.progress.note(`Updated tag ${tagId}; ${NO_BODY}`);
        // With no body, what is known: the ID and what was sent.
        await writeResult(ctx, 'tag', tag ?? { id: tagId, ...body });
        return 0;
      },
    },
    {
      name: 'apply',
      summary: 'Put a tag on one or many meetings',
      description:
        'Put an existing tag on meetings. IDs come from the arguments and/or --stdin. More than ' +
        `${TAG_APPLY_BATCH_SIZE} meetings are sent in batches of ${TAG_APPLY_BATCH_SIZE}, up to ` +
        `${DEFAULT_BULK_CONCURRENCY} batches at once within the rate limit; a failed batch is reported ` +
        'with the meetings it held, and the exit code is 6 when some batches failed and others applied. ' +
        'The tagged meetings go to stdout.',
      args: [
        { name: 'TAG_ID', description: 'the tag', required: true },
        { name: 'MEETING_ID', description: 'meetings to tag', variadic: true },
      ],
      options: [
        { flags: '--stdin', description: 'also read meeting IDs from stdin, one per line' },
        DRY_RUN_OPTION,
      ],
      examples: [
        'mtg tags apply 7 mtg_abc123 mtg_def456',
        'mtg meetings search "interview" --fields id | mtg tags apply 7 --stdin',
        'mtg meetings list --since 7d --fields id | mtg tags apply 7 --stdin --dry-run',
      ],
      async run(ctx, args, opts) {
        const tagId = positiveId(String(args.TAG_ID ?? ''), 'TAG_ID');
        const ids = await meetingIds(ctx, (args.MEETING_ID as string[] | undefined) ?? [], !!opts.stdin);
        const groups = batches(ids, TAG_APPLY_BATCH_SIZE);
        const { applyTag, applyTagRequest } = await import('../api/endpoints.js');
        if (isDryRun(opts))
          return printDryRun(
            ctx,
            groups.map((group) => applyTagRequest(tagId, group)),
          );
        const { runBulkCommand } = await import('../cli/bulk.js');
        const client = await ctx.client();
        const batchWord = (n: number) => (n === 1 ? 'batch' : 'batches');
        // Counted by the IDs sent in each applied batch, not by what the server echoed back.
        const taggedCount = (applied: readonly { group: string[] }[]) =>
          applied.reduce((n, r) => n + r.group.length, 0);
        return runBulkCommand(ctx, {
          items: groups,
          resource: 'meeting',
          worker: async (group) => ({ group, meetings: await applyTag(client, tagId, group) }),
          // A 2xx with no body was applied: what is known are the meeting IDs.
          printed: (result) => result.meetings ?? result.group.map((id) => ({ id })),
          failureLine: (group, index, message) => {
            const which =
              groups.length === 1
                ? ''
                : ` (batch ${index + 1} of ${groups.length}: ${group[0]} … ${group[group.length - 1]})`;
            return `tag ${tagId}: ${group.length} ${meetingsNoun(group.length)} not tagged${which}: ${message}`;
          },
          progressText: (_settled, applied) => `Tagged ${taggedCount(applied)} of ${ids.length} meetings`,
          summaryLine: (s, applied) =>
            `Tagged ${taggedCount(applied)} of ${ids.length} ${meetingsNoun(ids.length)} with tag ${tagId}` +
            (applied.some((r) => r.meetings === undefined) ? ` (${NO_BODY})` : '') +
            (s.failed ? `; ${s.failed} of ${s.total} ${batchWord(s.total)} failed` : '') +
            (s.skipped ? `; interrupted, ${s.skipped} ${batchWord(s.skipped)} not done` : ''),
        });
      },
    },
  ],
};
