// mtg mcp: the local mirror as a Model Context Protocol server on stdio (src/mcp/). stdout is the
// protocol's: everything else this command says goes to stderr.

import type { Readable, Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { VERSION } from '../../cli/context.js';
import { parseInterval } from '../../cli/dates.js';
import { defineRun } from '../../cli/spec.js';
import { appUrlOf } from '../../config/settings.js';
import { mirrorAccess } from '../../mcp/mirror-access.js';
import { serveStdio } from '../../mcp/server.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import * as spec from './spec.js';

export const run = defineRun(spec.mcp, async (ctx, args, opts) => {
  const word = args.ACTION;
  if (word !== undefined) {
    const action = spec.ACTIONS.find((a) => a === word.toLowerCase());
    if (!action) {
      throw new UsageError(
        `unknown word "${word}": mtg mcp serves (no word), mtg mcp install CLIENT or mtg mcp uninstall CLIENT`,
      );
    }
    // Loaded only for these: serving does not need it.
    const { runInstall } = await import('./install.js');
    return runInstall(ctx, action, args.CLIENT, opts);
  }
  if (opts.print) throw new UsageError('--print goes with mtg mcp install or uninstall');
  const syncEveryMs =
    opts.syncEvery === undefined ? undefined : parseInterval(opts.syncEvery, '--sync-every');
  if (syncEveryMs !== undefined && ctx.offline) {
    throw new UsageError(
      '--sync-every syncs, and --offline (or MTG_OFFLINE) sends no request: give one of them',
    );
  }
  if (opts.allowWrites && ctx.offline) {
    throw new UsageError(
      '--allow-writes sends requests, and --offline (or MTG_OFFLINE) sends none: give one of them',
    );
  }
  // The app URL only makes the Markdown resource's links: a config file mtg cannot read leaves them
  // out, but a bad MTG_APP_URL is bad input, refused before serving as `mtg export markdown` does.
  const settings = await ctx.settings(true).catch(() => undefined);
  const appUrl = settings && appUrlOf(settings);
  const access = await mirrorAccess(ctx);
  boundOldGeneration();
  await serveStdio(access, {
    version: VERSION,
    offline: ctx.offline,
    allowWrites: !!opts.allowWrites,
    appUrl: appUrl || undefined,
    stdin: ctx.io.in as unknown as Readable,
    stdout: ctx.io.out as unknown as Writable,
    signal: ctx.signal,
    syncEveryMs,
    clock: ctx.clock,
    log: (line) => ctx.progress.line(line),
    // A request's bound bounds a statement of the sql tool too.
    sqlTimeoutMs: ctx.globals.timeoutMs,
  });
  return ExitCode.ok;
});

/**
 * V8's old generation, in a server that runs for hours, grown to at most twice what survived its
 * last full GC. V8's own factor goes up to 4x, higher the slower its GCs run (a loaded machine):
 * what calls promote out of the young generation (kept small, src/cli/bin.ts) then filled it with
 * 35-70 MB of garbage before each full GC, and Node 26 keeps the freed pages a while (its memory
 * pool), so RSS peaked at 156-192 MB over 1,000 calls. Measured: no more CPU (bench/README.md).
 */
function boundOldGeneration(): void {
  try {
    setFlagsFromString('--heap-growing-percent=100');
  } catch {
    // A node without this flag: V8's default.
  }
}
