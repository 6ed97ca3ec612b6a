// mtg mcp install|uninstall CLIENT against a temp HOME: the client's own file at its documented
// place, every other entry kept, idempotent to the byte, a backup of what it changed, a file it
// cannot parse or may not write refused with nothing written, --print writing nothing.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFile } from '../../../src/mcp/install.js';
import { tempConfigDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';
import { type Connected, connect, mcpEnv } from '../../mcp/helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: the config files are JSON, read by path
type Obj = Record<string, any>;

const CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'windsurf'] as const;

/**
 * A fresh HOME (no XDG_CONFIG_HOME: ~/.config; mtg's config the default one under it), and where
 * each client's file is under it on Linux.
 */
function home() {
  const dir = tempDir('mtg-mcp-install-');
  const env = { HOME: dir, XDG_CONFIG_HOME: '', MTG_CONFIG_DIR: '', MTG_PROFILE: '' };
  const fileOf = (client: (typeof CLIENTS)[number]) => configFile(client, { platform: 'linux', env });
  const mtg = (...args: string[]) => runInProcess(['mcp', ...args], { env });
  return { dir, env, fileOf, mtg };
}

const read = (path: string): Obj => JSON.parse(readFileSync(path, 'utf8'));
const backups = (path: string) => readdirSync(dirname(path)).filter((f) => f.includes('.bak-'));

/**
 * `mtg mcp install cursor` from a shell with `shellEnv`, then the server the app starts from the
 * entry: HOME, `appEnv` and the entry's env alone, none of the shell's variables.
 */
async function installedServer(
  shellEnv: Record<string, string>,
  appEnv: Record<string, string> = {},
): Promise<Connected> {
  const h = home();
  const r = await runInProcess(['mcp', 'install', 'cursor'], { env: { ...h.env, ...shellEnv } });
  expect(r.code, r.stderr).toBe(0);
  const entry = read(h.fileOf('cursor').path).mcpServers.mtg;
  return connect({ HOME: h.dir, ...appEnv, ...entry.env });
}

describe('mtg mcp install CLIENT', () => {
  it('the documented places on Linux, macOS and Windows', () => {
    const env = { HOME: '/h', APPDATA: 'C:\\Users\\u\\AppData\\Roaming', USERPROFILE: 'C:\\Users\\u' };
    expect(configFile('claude-code', { platform: 'linux', env }).path).toBe('/h/.claude.json');
    expect(configFile('cursor', { platform: 'linux', env }).path).toBe('/h/.cursor/mcp.json');
    expect(configFile('windsurf', { platform: 'linux', env }).path).toBe(
      '/h/.codeium/windsurf/mcp_config.json',
    );
    expect(configFile('vscode', { platform: 'linux', env })).toEqual({
      path: '/h/.config/Code/User/mcp.json',
      key: 'servers',
    });
    expect(configFile('claude-desktop', { platform: 'darwin', env })).toEqual({
      path: '/h/Library/Application Support/Claude/claude_desktop_config.json',
      key: 'mcpServers',
    });
    expect(configFile('vscode', { platform: 'darwin', env }).path).toBe(
      '/h/Library/Application Support/Code/User/mcp.json',
    );
    expect(configFile('claude-code', { platform: 'linux', env }).key).toBe('mcpServers');
  });

  for (const client of CLIENTS) {
    it(`${client}: a fresh file with node and mtg by absolute path, 0600; a second run changes nothing`, async () => {
      const h = home();
      const { path, key } = h.fileOf(client);
      const r = await h.mtg('install', client);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^added to ${path.replace(/[.*+?()[\]\\]/g, '\\$&')}`));
      const entry = read(path)[key].mtg;
      expect(entry.command).toBe(process.execPath);
      expect(isAbsolute(entry.args[0])).toBe(true);
      expect(entry.args[0]).toMatch(/bin[/\\]mtg\.js$/);
      expect(existsSync(entry.args[0])).toBe(true);
      expect(entry.args.slice(1)).toEqual(['mcp']);
      if (client === 'vscode' || client === 'claude-code') expect(entry.type).toBe('stdio');
      expect(statSync(path).mode & 0o777).toBe(0o600);

      const bytes = readFileSync(path);
      const mtime = statSync(path).mtimeMs;
      const again = await h.mtg('install', client);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/nothing to change/);
      expect(readFileSync(path)).toEqual(bytes);
      expect(statSync(path).mtimeMs).toBe(mtime);
      expect(backups(path)).toEqual([]);
    });
  }

  it('an existing file: every other server and setting kept, its indentation and mode too, the old file backed up', async () => {
    const h = home();
    const { path } = h.fileOf('claude-desktop');
    mkdirSync(dirname(path), { recursive: true });
    const old = {
      mcpServers: { other: { command: 'npx', args: ['-y', 'other-server'] } },
      globalShortcut: 'Ctrl+Space',
    };
    const oldText = `${JSON.stringify(old, null, 4)}\n`;
    writeFileSync(path, oldText, { mode: 0o640 });
    chmodSync(path, 0o640);
    const r = await h.mtg(
      'install',
      'claude-desktop',
      '--profile',
      'work',
      '--sync-every',
      '10m',
      '--allow-writes',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const now = read(path);
    expect(now.globalShortcut).toBe('Ctrl+Space');
    expect(now.mcpServers.other).toEqual(old.mcpServers.other);
    expect(now.mcpServers['mtg-work'].args.slice(1)).toEqual([
      'mcp',
      '--profile',
      'work',
      '--sync-every',
      '10m',
      '--allow-writes',
    ]);
    expect(readFileSync(path, 'utf8')).toMatch(/^\{\n {4}"mcpServers"/);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    const [backup] = backups(path);
    expect(r.stdout).toContain(backup);
    expect(readFileSync(join(dirname(path), backup!), 'utf8')).toBe(oldText);

    // Other options: the entry is replaced, after a second backup.
    const changed = await h.mtg('install', 'claude-desktop', '--profile', 'work');
    expect(changed.stdout).toMatch(/^replaced in/);
    expect(read(path).mcpServers['mtg-work'].args.slice(1)).toEqual(['mcp', '--profile', 'work']);
    expect(backups(path)).toHaveLength(2);
  });

  it('a file it cannot parse (or VS Code JSON with comments): exit 2, one line, nothing written', async () => {
    const h = home();
    for (const [client, text, why] of [
      ['cursor', '{"mcpServers": {', /not JSON/],
      ['vscode', '{\n  // my servers\n  "servers": {}\n}\n', /comments/],
      ['claude-code', '[1, 2]', /no JSON object/],
      ['windsurf', '{"mcpServers": []}', /"mcpServers" is not an object/],
    ] as const) {
      const { path } = h.fileOf(client);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      const r = await h.mtg('install', client);
      expect(r.code, client).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(readFileSync(path, 'utf8')).toBe(text);
      expect(backups(path)).toEqual([]);
      expect((await h.mtg('uninstall', client)).code).toBe(2);
    }
  });

  it('a read-only file: refused, one line, unchanged', async () => {
    const h = home();
    const { path } = h.fileOf('cursor');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{"mcpServers": {}}');
    chmodSync(path, 0o444);
    const r = await h.mtg('install', 'cursor');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/read-only.*nothing was written/);
    expect(readFileSync(path, 'utf8')).toBe('{"mcpServers": {}}');
    expect(backups(path)).toEqual([]);
  });

  it('--print shows the entry and writes nothing', async () => {
    const h = home();
    const { path } = h.fileOf('cursor');
    const r = await h.mtg('install', 'cursor', '--print');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^would add to .*mcp\.json \(server "mtg"\):\n/);
    const shown = JSON.parse(r.stdout.slice(r.stdout.indexOf('\n') + 1));
    expect(shown.mtg.command).toBe(process.execPath);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(dirname(path))).toBe(false);
  });

  it.for([
    ['data', 'MTG_DATA_DIR', 'XDG_DATA_HOME', 'MTG_CONFIG_DIR'],
    ['config', 'MTG_CONFIG_DIR', 'XDG_CONFIG_HOME', 'MTG_DATA_DIR'],
  ] as const)(
    "a %s folder that is not the default (%s, %s) goes in the entry's env, absolute, and --print shows it; the API key never",
    async ([, variable, xdgVariable, other]) => {
      const h = home();
      const { path } = h.fileOf('cursor');
      const folder = tempDir('mtg-mcp-install-folder-');
      const install = (env: Record<string, string>) =>
        runInProcess(['mcp', 'install', 'cursor'], { env: { ...h.env, ...env } });

      const printed = await runInProcess(['mcp', 'install', 'cursor', '--print'], {
        env: { ...h.env, [variable]: folder },
      });
      expect(printed.code).toBe(0);
      expect(JSON.parse(printed.stdout.slice(printed.stdout.indexOf('\n') + 1)).mtg.env).toEqual({
        [variable]: folder,
      });
      expect(existsSync(path)).toBe(false);

      expect((await install({ [variable]: folder, MTG_API_KEY: 'secret-key' })).code).toBe(0);
      expect(read(path).mcpServers.mtg.env).toEqual({ [variable]: folder });
      expect(readFileSync(path, 'utf8')).not.toContain('secret-key');
      expect((await install({ [variable]: folder })).stdout).toMatch(/nothing to change/);

      // The other folder too: both carried.
      const second = tempDir('mtg-mcp-install-other-');
      expect((await install({ [variable]: folder, [other]: second })).code).toBe(0);
      expect(read(path).mcpServers.mtg.env).toEqual({ [variable]: folder, [other]: second });

      // A relative one names a folder of this shell's directory, which the assistant's process is not in.
      expect((await install({ [variable]: 'rel/folder' })).stdout).toMatch(/^replaced in/);
      expect(read(path).mcpServers.mtg.env).toEqual({ [variable]: resolve('rel/folder') });

      const xdg = tempDir('mtg-mcp-install-xdg-');
      expect((await install({ [xdgVariable]: xdg })).code).toBe(0);
      expect(read(path).mcpServers.mtg.env).toEqual({ [variable]: join(xdg, 'mtg') });

      // The default folder (HOME alone): nothing to carry.
      expect((await h.mtg('install', 'cursor')).code).toBe(0);
      expect(read(path).mcpServers.mtg.env).toEqual({});
    },
  );

  it("the assistant's `mtg mcp`, started with the entry's env alone, finds the mirror of MTG_DATA_DIR", async () => {
    const m = await mcpEnv();
    try {
      const c = await installedServer({ MTG_DATA_DIR: m.dataDir }, { MTG_CONFIG_DIR: tempConfigDir() });
      try {
        const status = await c.call('mirror_status');
        expect(status.isError, status.text).toBe(false);
        expect(status.data.counts.meetings).toBeGreaterThan(0);
      } finally {
        await c.close();
      }
    } finally {
      await m.sandbox.close();
    }
  });

  it("the assistant's `mtg mcp`, started with the entry's env alone, syncs with the profile of MTG_CONFIG_DIR (its base URL and key)", async () => {
    const m = await mcpEnv();
    try {
      // This shell's config: the profile's base URL and key (stored in the file, as with --insecure-storage).
      const config = tempConfigDir();
      writeFileSync(
        join(config, 'config.json'),
        JSON.stringify({
          profiles: { default: { 'base-url': m.env.MTG_BASE_URL, 'api-key': m.env.MTG_API_KEY } },
        }),
        { mode: 0o600 },
      );
      const c = await installedServer({ MTG_DATA_DIR: m.dataDir, MTG_CONFIG_DIR: config });
      try {
        const synced = await c.call('sync');
        expect(synced.isError, synced.text).toBe(false);
        expect(synced.data.complete).toBe(true);
      } finally {
        await c.close();
      }
    } finally {
      await m.sandbox.close();
    }
  });

  it('bad input: an unknown assistant or word, --print without install', async () => {
    const h = home();
    for (const argv of [['install', 'emacs'], ['install'], ['frobnicate'], ['--print']]) {
      const r = await h.mtg(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), argv.join(' ')).toHaveLength(1);
    }
  });
});

describe('mtg mcp uninstall CLIENT', () => {
  it('removes only its own entry (a backup kept); again, or with no file, it has nothing to do', async () => {
    const h = home();
    const { path } = h.fileOf('vscode');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify({ servers: { other: { type: 'stdio', command: 'x' } }, inputs: [] }));
    expect((await h.mtg('install', 'vscode')).code).toBe(0);
    expect(Object.keys(read(path).servers)).toEqual(['other', 'mtg']);

    const printed = await h.mtg('uninstall', 'vscode', '--print');
    expect(printed.stdout).toMatch(/^would remove from/);
    expect(Object.keys(read(path).servers)).toEqual(['other', 'mtg']);

    const r = await h.mtg('uninstall', 'vscode');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^removed from/);
    expect(read(path)).toEqual({ servers: { other: { type: 'stdio', command: 'x' } }, inputs: [] });
    expect(backups(path)).toHaveLength(2);
    const bytes = readFileSync(path);
    const again = await h.mtg('uninstall', 'vscode');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/nothing to remove/);
    expect(readFileSync(path)).toEqual(bytes);

    const none = await h.mtg('uninstall', 'cursor');
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/does not exist: nothing to remove/);
    expect(existsSync(h.fileOf('cursor').path)).toBe(false);
  });
});
