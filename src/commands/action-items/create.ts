// mtg action-items create: one action item, not linked to a meeting.

import { createActionItem, createActionItemRequest } from '../../api/endpoints.js';
import { UsageError } from '../../api/errors.js';
import { checkOutputOptions, NO_BODY } from '../../cli/bulk.js';
import type { Context } from '../../cli/context.js';
import { isDryRun, printDryRun } from '../../cli/dry-run.js';
import { positiveId } from '../../cli/input.js';
import { writeResult } from '../../cli/list.js';
import type { Args, Opts } from '../../cli/spec.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export async function run(ctx: Context, args: Args, opts: Opts): Promise<number> {
  const title = String(args.TITLE ?? '');
  if (title.trim() === '') throw new UsageError('the title must not be empty');
  const description = str(opts.description);
  const assignee = str(opts.assignee);
  const body = {
    title,
    ...(description !== undefined ? { description } : {}),
    ...(assignee !== undefined ? { assigneeProfileId: positiveId(assignee, '--assignee') } : {}),
  };
  if (isDryRun(opts)) return printDryRun(ctx, [createActionItemRequest(body)]);
  await checkOutputOptions(ctx, 'actionItem');
  const created = await createActionItem(await ctx.client(), body);
  // A 2xx with no body: created, but there is nothing (not even an ID) to print.
  if (created === undefined) ctx.progress.note(`Created the action item; ${NO_BODY}`);
  else await writeResult(ctx, 'actionItem', created);
  return 0;
}
