// mtg mcp: the local mirror as a Model Context Protocol server on stdio (src/mcp/). stdout is the
// protocol's: everything else this command says goes to stderr.

import type { Readable, Writable } from 'node:stream';
import { VERSION } from '../../cli/context.js';
import { parseInterval } from '../../cli/dates.js';
import { defineRun } from '../../cli/spec.js';
import { setServerV8Flags } from '../../cli/v8-flags.js';
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
  setServerV8Flags();
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
