// mtg changes: the mirror's change log, oldest first, in every output format.

import { parseTimeBound } from '../../cli/dates.js';
import { listValues, oneOf } from '../../cli/input.js';
import { planOutput } from '../../cli/output-plan.js';
import { defineRun } from '../../cli/spec.js';
import type * as changes from '../../mirror/changes.js';
import { MirrorReads } from '../../mirror/reads.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import * as spec from './spec.js';

export const run = defineRun(spec.changes, async (ctx, _args, opts) => {
  const resources = listValues(opts.resource, '--resource', spec.RESOURCES).map((v) =>
    oneOf(v, spec.RESOURCES, '--resource value'),
  );
  const after = opts.after;
  const since = opts.since === undefined ? undefined : parseSince(opts.since, ctx.io.now());
  const plan = await planOutput(ctx, 'change');
  const reads = new MirrorReads(await ctx.mirror({ readonly: true }));
  const { count } = await plan.list(reads.changes({ since, after, resources, limit: plan.limit }));
  if (count === 0) ctx.progress.note('No changes.');
  return ExitCode.ok;
});

/**
 * `--since` values: `last`, a run number, or a time: an ISO date or date-time (a bare date is the
 * start of that local day) or a duration back from now (30m, 24h, 7d, 2w).
 */
function parseSince(value: string, now: Date): changes.ChangesSince {
  const v = value.trim();
  if (v === 'last') return { kind: 'last' };
  if (/^\d+$/.test(v)) {
    const run = Number(v);
    if (!Number.isSafeInteger(run) || run < 1)
      throw new UsageError(`--since run must be 1 or more, got "${value}"`);
    return { kind: 'run', run };
  }
  // A time: the same dates and durations as --since everywhere (a bare date is a local day).
  try {
    return { kind: 'time', at: parseTimeBound(v, '--since', now).toISOString() };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    // The shared message names dates only; here `last` and a run number are just as valid.
    throw new UsageError(
      err.message
        .replace(
          'is not a date, date-time or duration',
          'is not last, a sync run number, a date, date-time or duration',
        )
        .replace('; e.g. ', '; e.g. last, 3, '),
    );
  }
}
