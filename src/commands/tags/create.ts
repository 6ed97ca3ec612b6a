// mtg tags create: a new tag (an existing name is a conflict error).

import { createTag, createTagRequest } from '../../api/endpoints.js';
import { withApplyCheck } from '../../api/errors.js';
import { NO_BODY } from '../../cli/bulk.js';
import { isDryRun, printDryRun } from '../../cli/dry-run.js';
import { planOutput } from '../../cli/output-plan.js';
import { defineRun } from '../../cli/spec.js';
import { ExitCode } from '../../shared/errors.js';
import { nameConflict, tagName } from './names.js';
import * as spec from './spec.js';

export const run = defineRun(spec.create, async (ctx, args, opts) => {
  const name = tagName(args.NAME, 'the tag name');
  const description = opts.description;
  const body = { name, ...(description !== undefined ? { description } : {}) };
  if (isDryRun(opts)) return printDryRun(ctx, [createTagRequest(body)]);
  const plan = await planOutput(ctx, 'tag');
  const client = await ctx.client();
  const tag = await createTag(client, body).catch((err: unknown) => {
    // Running it again is the check: a name that exists is refused as a conflict (409).
    throw withApplyCheck(
      nameConflict(err, name),
      `to check: run it again; if it was applied, the server refuses the name "${name}" as taken`,
    );
  });
  // A 2xx with no body: created, but the new tag's ID is not known.
  if (tag === undefined) ctx.progress.note(`Created tag "${name}"; ${NO_BODY}`);
  else await plan.one(tag);
  return ExitCode.ok;
});
