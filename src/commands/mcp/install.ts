// mtg mcp install|uninstall CLIENT: mtg's entry in an assistant's configuration file (src/mcp/install.ts).

import { isAbsolute, join, resolve } from 'node:path';
import type { Context } from '../../cli/context.js';
import { parseInterval } from '../../cli/dates.js';
import { dataDir } from '../../config/data-dir.js';
import { configDir } from '../../config/store.js';
import * as install from '../../mcp/install.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import { installFolder } from '../../shared/install-folder.js';

export interface InstallOptions {
  syncEvery?: string;
  allowWrites: boolean;
  print: boolean;
}

/** How the assistant starts mtg: node and mtg's bin by absolute path (a standalone mtg: itself). */
async function serveCommand(args: string[]): Promise<install.ServeCommand> {
  const sea = (await import('node:sea').catch(() => undefined)) as { isSea?: () => boolean } | undefined;
  if (sea?.isSea?.()) return { command: process.execPath, args: ['mcp', ...args] };
  return { command: process.execPath, args: [join(installFolder(), 'bin', 'mtg.js'), 'mcp', ...args] };
}

/**
 * The data and config folders of this shell for the assistant's process, which starts from the
 * app with none of the shell's variables: without MTG_DATA_DIR, `mtg mcp` there looked in the
 * default folder and answered "no mirror"; without MTG_CONFIG_DIR it read another config file (its
 * profiles, base URL and key). Absolute (a relative one names a folder of this shell's directory);
 * nothing for a folder that is the default one, found from HOME alone. The profile goes as
 * --profile; nothing secret (MTG_API_KEY) is written.
 */
function foldersEnv(env: Record<string, string | undefined>): Record<string, string> {
  const chosen: Record<string, string> = {};
  const absolute = (p: string | undefined) => !!p && isAbsolute(p);
  if (env.MTG_DATA_DIR || absolute(env.XDG_DATA_HOME)) chosen.MTG_DATA_DIR = dataDir(env);
  if (env.MTG_CONFIG_DIR || absolute(env.XDG_CONFIG_HOME)) {
    const config = configDir(env);
    if ('dir' in config) chosen.MTG_CONFIG_DIR = resolve(config.dir);
  }
  return chosen;
}

export async function runInstall(
  ctx: Context,
  action: 'install' | 'uninstall',
  clientName: string | undefined,
  opts: InstallOptions,
): Promise<number> {
  const client = install.checkClient(clientName);
  const where = { platform: process.platform, env: ctx.env };
  // The profile of this shell (flag or MTG_PROFILE): the assistant's process has neither.
  const profile = ctx.globals.profile ?? (ctx.env.MTG_PROFILE || undefined);
  let plan: install.Plan;
  if (action === 'install') {
    if (opts.syncEvery !== undefined) parseInterval(opts.syncEvery, '--sync-every');
    if (opts.syncEvery !== undefined && ctx.offline) {
      throw new UsageError('--sync-every syncs, and --offline sends no request: give one of them');
    }
    const args = [
      ...(profile ? ['--profile', profile] : []),
      ...(ctx.offline ? ['--offline'] : []),
      ...(opts.syncEvery !== undefined ? ['--sync-every', opts.syncEvery] : []),
      ...(opts.allowWrites ? ['--allow-writes'] : []),
    ];
    const serve = { ...(await serveCommand(args)), env: foldersEnv(ctx.env) };
    plan = await install.planInstall(client, where, serve, profile);
  } else {
    if (opts.syncEvery !== undefined || opts.allowWrites) {
      throw new UsageError('mtg mcp uninstall takes neither --sync-every nor --allow-writes');
    }
    plan = await install.planUninstall(client, where, profile);
  }
  const label = install.labelOf(client);
  const out = (line: string) => ctx.io.out.write(`${line}\n`);
  if (plan.change === 'none') {
    out(`${plan.reason}: nothing to change`);
    return ExitCode.ok;
  }
  const where_ = `${plan.path} (server "${plan.name}")`;
  if (opts.print) {
    const verb = { add: 'would add to', replace: 'would replace in', remove: 'would remove from' }[
      plan.change
    ];
    out(`${verb} ${where_}${plan.entry ? ':' : ''}`);
    if (plan.entry) out(JSON.stringify({ [plan.name]: plan.entry }, null, 2));
    return ExitCode.ok;
  }
  const backup = await install.apply(plan);
  const done = { add: 'added to', replace: 'replaced in', remove: 'removed from' }[plan.change];
  out(
    `${done} ${where_}${backup ? `; the old file is ${backup}` : ''}; restart ${label} to ${plan.change === 'remove' ? 'unload' : 'load'} it`,
  );
  return ExitCode.ok;
}
