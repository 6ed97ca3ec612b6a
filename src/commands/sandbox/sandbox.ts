// mtg sandbox: serve the whole API locally from seeded data. The sandbox (a server and its seeded
// data: heavy) is a static import of this module, which the registry loads only for `mtg sandbox`.

import { defineRun } from '../../cli/spec.js';
import {
  DataFileError,
  loadDataFile,
  parseChurn,
  parseFaults,
  parseLimits,
  runSandboxCommand,
} from '../../sandbox/index.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import * as spec from './spec.js';

export const run = defineRun(spec.sandbox, async (ctx, _args, opts) => {
  const { host, limits, faults, churn } = opts;
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
  if (limits !== undefined) check(() => parseLimits(limits));
  if (faults !== undefined) check(() => parseFaults(faults));
  if (churn !== undefined) check(() => parseChurn(churn));
  const { actionItems, meetings, data } = opts;
  if (data !== undefined) {
    // The generated data's knobs mean nothing over a file's records; churn edits generated people.
    const conflicting = [
      ['--meetings', meetings],
      ['--action-items', actionItems],
      ['--churn', churn],
    ].find(([, v]) => v !== undefined);
    if (conflicting) throw new UsageError(`${conflicting[0]} works on generated data, not with --data`);
  }
  const store = data === undefined ? undefined : loadStore(data);
  await runSandboxCommand(
    {
      port: opts.port,
      host,
      plan: opts.plan,
      limits,
      seed: opts.seed,
      pageSize: opts.pageSize,
      latencyMs: opts.latency,
      faults,
      churn,
      basePath: opts.basePath,
      ...(store !== undefined && { store }),
      sizes: {
        ...(actionItems !== undefined && { actionItems }),
        ...(meetings !== undefined && { meetings }),
      },
      json: ctx.globals.format === 'json',
    },
    { stdout: ctx.io.out, stderr: ctx.io.err, signal: ctx.signal },
  );
  return ExitCode.ok;
});

function loadStore(path: string) {
  try {
    return loadDataFile(path);
  } catch (err) {
    if (err instanceof DataFileError) throw new UsageError(err.message);
    throw err;
  }
}
