// mtg changes: the mirror's change log, oldest first, in every output format.

import { ExitCode } from '../../api/errors.js';
import { listValues, oneOf } from '../../cli/input.js';
import { defineRun } from '../../cli/spec.js';
import * as changes from '../../mirror/changes.js';
import { MirrorReads } from '../../mirror/reads.js';
import { planOutput } from '../../output/plan.js';
import * as spec from './spec.js';

export const run = defineRun(spec.changes, async (ctx, _args, opts) => {
  const resources = listValues(opts.resource, '--resource', spec.RESOURCES).map((v) =>
    oneOf(v, spec.RESOURCES, '--resource value'),
  );
  const after = opts.after;
  const since = opts.since === undefined ? undefined : changes.parseSince(opts.since, ctx.io.now());
  const plan = await planOutput(ctx, 'change');
  const reads = new MirrorReads(await ctx.mirror({ readonly: true }));
  const { count } = await plan.list(reads.changes({ since, after, resources, limit: plan.limit }));
  if (count === 0) ctx.progress.note('No changes.');
  return ExitCode.ok;
});
