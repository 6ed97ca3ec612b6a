// `mtg mcp install|uninstall CLIENT`: mtg's entry in an assistant's own MCP configuration file, at
// the place its documentation gives for this OS. Each client reads a JSON object of servers by
// name: Claude Desktop, Cursor, Windsurf and Claude Code (user scope) under `mcpServers`, VS Code
// (its user mcp.json) under `servers`. The entry runs node and mtg's bin by absolute path, since a
// GUI app started from the dock has none of the shell's PATH.
//
// Claude Code: its documented ways are `claude mcp add --scope user` and the file that command
// writes, ~/.claude.json's top-level `mcpServers`. mtg writes that file itself, the same entry the
// command would: the `claude` command may not be installed where mtg is, and writing the file keeps
// --print, the backup and the refusal of a file mtg cannot parse the same for every client.
//
// A file is changed only when the entry differs (a second run writes nothing, not a byte), after a
// backup beside it (FILE.bak-<time>), atomically, keeping its mode (a new file is 0600); every other
// key stays as it was. A file that is not plain JSON (VS Code's JSONC with comments included) is
// refused rather than rewritten without its comments.

import { readFile, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { MtgError, UsageError } from '../shared/errors.js';
import { CLIENT_NAMES } from './clients.js';

export const CLIENTS = CLIENT_NAMES;
export type Client = (typeof CLIENTS)[number];

const LABELS: Record<Client, string> = {
  'claude-code': 'Claude Code',
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  vscode: 'VS Code',
  windsurf: 'Windsurf',
};

type Obj = Record<string, unknown>;

export interface Where {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

const absolute = (v: string | undefined) => (v && isAbsolute(v) ? v : undefined);

/** The folder of an Electron app's data (Claude Desktop, VS Code) on this OS. */
function appData(where: Where, app: string): string {
  const home = homeOf(where);
  if (where.platform === 'darwin') return join(home, 'Library', 'Application Support', app);
  if (where.platform === 'win32') {
    const roaming = absolute(where.env.APPDATA) ?? join(home, 'AppData', 'Roaming');
    return join(roaming, app);
  }
  return join(absolute(where.env.XDG_CONFIG_HOME) ?? join(home, '.config'), app);
}

function homeOf(where: Where): string {
  const home = absolute(
    where.platform === 'win32' ? (where.env.USERPROFILE ?? where.env.HOME) : where.env.HOME,
  );
  if (!home) {
    throw new UsageError(
      `no home folder to find the assistant's configuration in: ${where.platform === 'win32' ? 'USERPROFILE' : 'HOME'} is not an absolute path`,
    );
  }
  return home;
}

/** The client's configuration file for this OS, and the key its servers are under. */
export function configFile(client: Client, where: Where): { path: string; key: 'mcpServers' | 'servers' } {
  switch (client) {
    case 'claude-code':
      return { path: join(homeOf(where), '.claude.json'), key: 'mcpServers' };
    case 'claude-desktop':
      return { path: join(appData(where, 'Claude'), 'claude_desktop_config.json'), key: 'mcpServers' };
    case 'cursor':
      return { path: join(homeOf(where), '.cursor', 'mcp.json'), key: 'mcpServers' };
    case 'vscode':
      return { path: join(appData(where, 'Code'), 'User', 'mcp.json'), key: 'servers' };
    case 'windsurf':
      return { path: join(homeOf(where), '.codeium', 'windsurf', 'mcp_config.json'), key: 'mcpServers' };
  }
}

export function checkClient(name: string | undefined): Client {
  const client = CLIENTS.find((c) => c === name?.toLowerCase());
  if (!client) {
    throw new UsageError(
      name === undefined
        ? `which assistant? mtg mcp install CLIENT, where CLIENT is one of ${CLIENTS.join(', ')}`
        : `unknown assistant "${name}": one of ${CLIENTS.join(', ')}`,
    );
  }
  return client;
}

export interface ServeCommand {
  /** Absolute path of the program (node, or a standalone mtg). */
  command: string;
  /** Its arguments, mtg's bin first when command is node. */
  args: string[];
  /** Variables the assistant's process needs set (the data folder when it is not the default). */
  env?: Record<string, string>;
}

/** The server's name in the file: `mtg`, or `mtg-PROFILE` for another profile's mirror. */
export function serverName(profile: string | undefined): string {
  return profile ? `mtg-${profile}` : 'mtg';
}

/** The client's entry for `mtg mcp` run as `serve`. */
export function entryFor(client: Client, serve: ServeCommand): Obj {
  // VS Code and Claude Code write the transport; the others take command and args alone.
  const typed = client === 'vscode' || client === 'claude-code';
  return {
    ...(typed && { type: 'stdio' }),
    command: serve.command,
    args: serve.args,
    env: { ...serve.env },
  };
}

export type Plan =
  | { change: 'none'; path: string; name: string; reason: string }
  | {
      change: 'add' | 'replace' | 'remove';
      path: string;
      name: string;
      text: string;
      entry?: Obj;
      exists: boolean;
    };

function isObject(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The file's indentation (two spaces when it has none to copy) and line ending, to keep them. */
function styleOf(text: string): { indent: string | number; eol: string } {
  const m = /^[{[][^\S\n]*\r?\n([ \t]+)\S/.exec(text);
  return { indent: m ? m[1]! : 2, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

function render(value: Obj, like: string | undefined): string {
  const { indent, eol } = styleOf(like ?? '');
  const json = JSON.stringify(value, null, indent);
  return `${eol === '\n' ? json : json.replace(/\n/g, eol)}${eol}`;
}

/** The file's JSON object, or a refusal naming the file (exit 2, nothing written). */
function parse(path: string, text: string, label: string): Obj {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const comments = /^\s*\/\/|\/\*/m.test(text)
      ? ' (it has comments: JSON with comments is not rewritten)'
      : '';
    throw new UsageError(
      `${path} is not JSON mtg can edit${comments}: ${err instanceof Error ? err.message : String(err)}; fix it or add mtg to ${label} by hand (--print shows the entry); nothing was written`,
    );
  }
  if (!isObject(value)) throw new UsageError(`${path} holds no JSON object: nothing was written`);
  return value;
}

async function readIfAny(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fileError('read', path, err);
  }
}

function fileError(what: string, path: string, err: unknown): MtgError {
  const e = err as NodeJS.ErrnoException;
  const why =
    e.code === 'EACCES' || e.code === 'EPERM'
      ? 'permission denied'
      : e.code === 'ENOTDIR'
        ? 'a part of the path is a file'
        : e.code === 'EISDIR'
          ? 'it is a folder'
          : (e.message ?? String(err));
  return new MtgError(`cannot ${what} ${path}: ${why}; nothing was written`, 1);
}

/** What `install` changes in the client's file (nothing when the same entry is there). */
export async function planInstall(
  client: Client,
  where: Where,
  serve: ServeCommand,
  profile?: string,
): Promise<Plan> {
  const { path, key } = configFile(client, where);
  const name = serverName(profile);
  const old = await readIfAny(path);
  const config = old === undefined ? {} : parse(path, old, LABELS[client]);
  const servers = config[key] ?? {};
  if (!isObject(servers)) throw new UsageError(`${path}: "${key}" is not an object: nothing was written`);
  const entry = entryFor(client, serve);
  if (deepEqual(servers[name], entry)) {
    return {
      change: 'none',
      path,
      name,
      reason: `${LABELS[client]} already runs ${name} this way (${path})`,
    };
  }
  const next = { ...config, [key]: { ...servers, [name]: entry } };
  return {
    change: name in servers ? 'replace' : 'add',
    path,
    name,
    entry,
    text: render(next, old),
    exists: old !== undefined,
  };
}

/** What `uninstall` changes (nothing when the file has no such server). */
export async function planUninstall(client: Client, where: Where, profile?: string): Promise<Plan> {
  const { path, key } = configFile(client, where);
  const name = serverName(profile);
  const old = await readIfAny(path);
  if (old === undefined)
    return { change: 'none', path, name, reason: `${path} does not exist: nothing to remove` };
  const config = parse(path, old, LABELS[client]);
  const servers = config[key];
  if (servers !== undefined && !isObject(servers)) {
    throw new UsageError(`${path}: "${key}" is not an object: nothing was written`);
  }
  if (!servers || !(name in servers)) {
    return {
      change: 'none',
      path,
      name,
      reason: `${LABELS[client]} has no server ${name} (${path}): nothing to remove`,
    };
  }
  const { [name]: _gone, ...rest } = servers;
  return { change: 'remove', path, name, text: render({ ...config, [key]: rest }, old), exists: true };
}

/** The backup's name: FILE.bak-20260301T140000Z (a second one in the same second gets -2, -3, ...). */
function backupName(path: string, now: Date): string {
  return `${path}.bak-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
}

/** Writes `plan`: a backup of the old file, then the new one atomically. Returns the backup's path. */
export async function apply(plan: Plan, now = new Date()): Promise<string | undefined> {
  if (plan.change === 'none') return undefined;
  const { mkdir } = await import('node:fs/promises');
  let backup: string | undefined;
  if (plan.exists) {
    const st = await stat(plan.path).catch((err) => {
      throw fileError('read', plan.path, err);
    });
    // The user made it read-only: not ours to override (root could, which is no reason to).
    if ((st.mode & 0o222) === 0) {
      throw new MtgError(`${plan.path} is read-only: make it writable to change it; nothing was written`, 1);
    }
    const old = await readFile(plan.path);
    const base = backupName(plan.path, now);
    for (let n = 1; n <= 100 && backup === undefined; n++) {
      const candidate = n === 1 ? base : `${base}-${n}`;
      try {
        await writeFile(candidate, old, { flag: 'wx', mode: st.mode & 0o777 });
        backup = candidate;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw fileError('back up', plan.path, err);
      }
    }
    if (backup === undefined) throw new MtgError(`cannot find a free backup name for ${plan.path}`, 1);
  } else {
    await mkdir(join(plan.path, '..'), { recursive: true, mode: 0o700 }).catch((err) => {
      throw fileError('create the folder of', plan.path, err);
    });
  }
  try {
    await writeFileAtomic(plan.path, plan.text, { mode: 0o600, keepMode: true });
  } catch (err) {
    throw fileError('write', plan.path, err);
  }
  return backup;
}

export const labelOf = (client: Client) => LABELS[client];
