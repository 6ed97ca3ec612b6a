// mtg changes: the mirror's change log, oldest first, in every output format.

import { ExitCode } from '../../api/errors.js';
import { listValues, oneOf } from '../../cli/input.js';
import { defineRun } from '../../cli/spec.js';
import * as changes from '../../mirror/changes.js';
import { openMirrorForReading } from '../../mirror/read-target.js';
import { planOutput } from '../../output/plan.js';
import * as spec from './spec.js';

export const run = defineRun(spec.changes, async (ctx, _args, opts) => {
  const resources = listValues(opts.resource, '--resource', spec.RESOURCES).map((v) =>
    oneOf(v, spec.RESOURCES, '--resource value'),
  );
  const after = opts.after;
  const since = opts.since === undefined ? undefined : changes.parseSince(opts.since, ctx.io.now());
  const plan = await planOutput(ctx, 'change');
  const mirror = await openMirrorForReading(ctx);
  try {
    if (since?.kind === 'run') changes.checkRunExists(mirror.db, since.run);
    if (after !== undefined) changes.checkAfter(mirror.db, after);
    const { count } = await plan.list(
      changes.readChanges(mirror.db, { since, after, resources, limit: plan.limit }),
    );
    if (count === 0) ctx.progress.note('No changes.');
  } finally {
    mirror.close();
  }
  return ExitCode.ok;
});
