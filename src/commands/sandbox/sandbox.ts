// mtg sandbox: serve the whole API locally from seeded data. The sandbox (a server and its seeded
// data: heavy) is a static import of this module, which the registry loads only for `mtg sandbox`.

import { PLANS } from '../../api/assumptions.js';
import { UsageError } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';
import { oneOf, positiveId, wholeNumber } from '../../cli/input.js';
import type { Args, Opts } from '../../cli/spec.js';
import { parseChurn, parseFaults, parseLimits, runSandboxCommand } from '../../sandbox/index.js';

/** Number options are optional here: undefined when not given. */
function optionalNumber(value: unknown, what: string, min = 0): number | undefined {
  return value === undefined ? undefined : wholeNumber(String(value), what, min);
}

export async function run(ctx: Context, _args: Args, opts: Opts): Promise<number> {
  const host = String(opts.host);
  if (!/^(127(\.\d{1,3}){3}|localhost|::1)$/.test(host)) {
    throw new UsageError(`--host must be a loopback address (127.0.0.1, ::1 or localhost), got "${host}"`);
  }
  const check = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  };
  if (opts.limits !== undefined) check(() => parseLimits(String(opts.limits)));
  if (opts.faults !== undefined) check(() => parseFaults(String(opts.faults)));
  if (opts.churn !== undefined) check(() => parseChurn(String(opts.churn)));
  const actionItems = optionalNumber(opts.actionItems, '--action-items');
  const meetings = optionalNumber(opts.meetings, '--meetings', 1);
  await runSandboxCommand(
    {
      port: optionalNumber(opts.port, '--port'),
      host,
      plan: oneOf(String(opts.plan), PLANS, '--plan'),
      limits: opts.limits === undefined ? undefined : String(opts.limits),
      seed: optionalNumber(opts.seed, '--seed'),
      pageSize: positiveId(String(opts.pageSize), '--page-size'),
      latencyMs: optionalNumber(opts.latency, '--latency'),
      faults: opts.faults === undefined ? undefined : String(opts.faults),
      churn: opts.churn === undefined ? undefined : String(opts.churn),
      basePath: opts.basePath === undefined ? undefined : String(opts.basePath),
      sizes: {
        ...(actionItems !== undefined && { actionItems }),
        ...(meetings !== undefined && { meetings }),
      },
      json: ctx.globals.format === 'json',
    },
    { stdout: ctx.io.stdout, stderr: ctx.io.stderr, signal: ctx.signal },
  );
  return 0;
}
