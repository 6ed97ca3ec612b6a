// mtg tags apply: put a tag on one or many meetings, in concurrent batches.

import { applyTag, applyTagRequest } from '../../api/endpoints.js';
import { NO_BODY, runBulkCommand } from '../../cli/bulk.js';
import type { Context } from '../../cli/context.js';
import { isDryRun, printDryRun } from '../../cli/dry-run.js';
import { readStdinIds } from '../../cli/input.js';
import { defineRun } from '../../cli/spec.js';
import { UsageError } from '../../shared/errors.js';
import { exactId, stringId } from '../../shared/ids.js';
import * as spec from './spec.js';

/** Meeting IDs from the arguments and --stdin, validated, duplicates dropped (first occurrence kept). */
async function meetingIds(ctx: Context, args: string[], fromStdin: boolean): Promise<string[]> {
  const raw = [...args, ...(fromStdin ? await readStdinIds(ctx.io.in, 'meeting IDs') : [])];
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

export const run = defineRun(spec.apply, async (ctx, args, opts) => {
  const tagId = exactId(args.TAG_ID, 'TAG_ID');
  const ids = await meetingIds(ctx, args.MEETING_ID, opts.stdin);
  const groups = batches(ids, spec.TAG_APPLY_BATCH_SIZE);
  if (isDryRun(opts))
    return printDryRun(
      ctx,
      groups.map((group) => applyTagRequest(tagId, group)),
    );
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
    keys: (group) => group.map((id) => ({ id })),
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
      (s.notSent ? `; ${s.notSent} of ${s.total} ${batchWord(s.total)} not sent` : '') +
      (s.skipped ? `; interrupted, ${s.skipped} ${batchWord(s.skipped)} not done` : ''),
  });
});
