// mtg action-items create: one action item, not linked to a meeting.

import { createActionItem, createActionItemRequest } from '../../api/endpoints.js';
import { withApplyCheck } from '../../api/errors.js';
import { NO_BODY } from '../../cli/bulk.js';
import { isDryRun, printDryRun } from '../../cli/dry-run.js';
import { planOutput } from '../../cli/output-plan.js';
import { defineRun } from '../../cli/spec.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import { exactId } from '../../shared/ids.js';
import * as spec from './spec.js';

export const run = defineRun(spec.create, async (ctx, args, opts) => {
  const title = args.TITLE;
  if (title.trim() === '') throw new UsageError('the title must not be empty');
  const description = opts.description;
  const assignee = opts.assignee;
  const body = {
    title,
    ...(description !== undefined ? { description } : {}),
    ...(assignee !== undefined ? { assigneeProfileId: exactId(assignee, '--assignee') } : {}),
  };
  if (isDryRun(opts)) return printDryRun(ctx, [createActionItemRequest(body)]);
  const plan = await planOutput(ctx, 'actionItem');
  const created = await createActionItem(await ctx.client(), body).catch((err: unknown) => {
    throw withApplyCheck(
      err,
      'to check: mtg action-items list --assignee anyone --status all --fields id,title',
    );
  });
  // A 2xx with no body: created, but there is nothing (not even an ID) to print.
  if (created === undefined) ctx.progress.note(`Created the action item; ${NO_BODY}`);
  else await plan.one(created);
  return ExitCode.ok;
});
