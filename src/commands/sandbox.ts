// mtg sandbox: serve the whole API locally from seeded data. The sandbox module is imported only
// here, inside run(), so it never sits on the start-up path of other commands.

import { PLANS } from '../api/assumptions.js';
import { UsageError } from '../api/errors.js';
import { oneOf, positiveId, wholeNumber } from '../cli/input.js';
import type { CommandSpec } from '../cli/spec.js';

/** Number options are optional here: undefined when not given. */
function optionalNumber(value: unknown, what: string, min = 0): number | undefined {
  return value === undefined ? undefined : wholeNumber(String(value), what, min);
}

export const sandboxCommand: CommandSpec = {
  name: 'sandbox',
  summary: 'Serve the whole API locally from seeded data, to try every command without an account',
  description:
    'Serve the whole API on loopback from deterministic seeded data. Prints one line when listening ' +
    '(with --json: {"baseUrl","apiKey","plan"}) and runs until Ctrl-C. It enforces auth, the plan\'s rate limits, ' +
    'pagination with opaque cursors and the error envelope, like the real service.',
  options: [
    { flags: '--port <n>', description: 'port to listen on (0 = any free port)', defaultValue: '0' },
    {
      flags: '--host <host>',
      description: 'address to listen on (loopback only)',
      defaultValue: '127.0.0.1',
    },
    { flags: '--plan <plan>', description: 'rate-limit plan', choices: PLANS, defaultValue: 'Pro' },
    { flags: '--limits <spec>', description: 'replace the plan\'s windows, e.g. "5/1s,40/10s", or "none"' },
    { flags: '--seed <n>', description: 'seed of the generated data', defaultValue: '1' },
    { flags: '--page-size <n>', description: 'items per page of list endpoints', defaultValue: '25' },
    { flags: '--latency <ms>', description: 'delay added to each response', defaultValue: '0' },
    { flags: '--faults <spec>', description: 'inject faults, e.g. "500:0.05,reset:0.02,stall:0.01"' },
    {
      flags: '--churn <spec>',
      description:
        'change the data while serving, e.g. "2/1s" (2 rounds a second): meetings, transcripts, action items, people, companies created, edited and deleted, deterministic from --seed',
    },
    {
      flags: '--action-items <n>',
      description: 'number of action items to generate (e.g. 100000 for benchmarks)',
    },
    { flags: '--meetings <n>', description: 'number of meetings to generate' },
    { flags: '--base-path <path>', description: 'serve under a path prefix, e.g. /v1' },
  ],
  examples: [
    'mtg sandbox',
    'mtg sandbox --json --port 0 --limits "5/1s,40/10s" --churn 2/1s --seed 7',
    'mtg sandbox --action-items 100000 --page-size 100 --limits none',
  ],
  async run(ctx, _args, opts) {
    const host = String(opts.host);
    if (!/^(127(\.\d{1,3}){3}|localhost|::1)$/.test(host)) {
      throw new UsageError(`--host must be a loopback address (127.0.0.1, ::1 or localhost), got "${host}"`);
    }
    const { parseChurn, parseFaults, parseLimits, runSandboxCommand } = await import('../sandbox/index.js');
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
      { stdout: ctx.io.out, stderr: ctx.io.err, signal: ctx.signal },
    );
    return 0;
  },
};
