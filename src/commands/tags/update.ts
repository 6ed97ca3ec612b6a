// mtg tags update: rename a tag or change its description.

import { updateTag, updateTagRequest } from '../../api/endpoints.js';
import { NO_BODY } from '../../cli/bulk.js';
import { isDryRun, printDryRun } from '../../cli/dry-run.js';
import { planOutput } from '../../cli/output-plan.js';
import { defineRun } from '../../cli/spec.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import { exactId } from '../../shared/ids.js';
import { nameConflict, tagName } from './names.js';
import * as spec from './spec.js';

export const run = defineRun(spec.update, async (ctx, args, opts) => {
  const tagId = exactId(args.TAG_ID, 'TAG_ID');
  const name = opts.name;
  const description = opts.description;
  if (name === undefined && description === undefined) {
    throw new UsageError('nothing to update: give --name or --description');
  }
  const body = {
    ...(name !== undefined ? { name: tagName(name, '--name') } : {}),
    ...(description !== undefined ? { description } : {}),
  };
  if (isDryRun(opts)) return printDryRun(ctx, [updateTagRequest(tagId, body)]);
  const plan = await planOutput(ctx, 'tag');
  const tag = await updateTag(await ctx.client(), tagId, body).catch((err: unknown) => {
    throw nameConflict(err, name ?? '');
  });
  if (tag === undefined) ctx.progress.note(`Updated tag ${tagId}; ${NO_BODY}`);
  // With no body, what is known: the ID and what was sent.
  await plan.one(tag ?? { id: tagId, ...body });
  return ExitCode.ok;
});
