// API keys in a real Secret Service (GNOME Keyring) on a private session bus (issue #24). Run by
// test/keyring/run-private-bus.sh (.ci/run does), which starts the bus and an unlocked keyring in a
// throw-away home and sets MTG_TEST_PRIVATE_BUS=1: without it these tests fail rather than touch
// whatever bus the shell has (a developer's own keyring). What is in the store is checked with
// libsecret's secret-tool, not with mtg's own code.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';

const KEY = 'mtg_sk_test_Keyr1ngKeyr1ngKeyr1ng01';
const WORK_KEY = 'mtg_sk_test_W0rkW0rkW0rkW0rkW0rk99';
let sandbox: Sandbox;
const profiles = new Set<string>();

beforeAll(async () => {
  if (process.env.MTG_TEST_PRIVATE_BUS !== '1' || !process.env.DBUS_SESSION_BUS_ADDRESS) {
    throw new Error(
      'These tests need a Secret Service on a private session bus: run sh test/keyring/run-private-bus.sh',
    );
  }
  sandbox = await startSandbox({ limits: 'none', apiKeys: [KEY, WORK_KEY] });
});
afterEach(() => {
  for (const profile of profiles) secretTool('clear', profile);
  profiles.clear();
});
afterAll(async () => {
  await sandbox?.close();
});

/** secret-tool lookup/clear of mtg's entry for a profile; lookup: the secret, or undefined. */
function secretTool(op: 'lookup' | 'clear', profile: string): string | undefined {
  try {
    return execFileSync('secret-tool', [op, 'service', 'mtg', 'username', profile], { encoding: 'utf8' });
  } catch {
    return undefined; // lookup exits 1 when there is no such entry
  }
}

function configDir(): string {
  return tempConfigDir();
}

const readConfig = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

/** mtg on the private bus, as a desktop session would run it. */
function mtg(args: string[], dir: string, options: { input?: string; env?: Record<string, string> } = {}) {
  return runCli(args, {
    env: {
      MTG_CONFIG_DIR: dir,
      DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS,
      ...options.env,
    },
    input: options.input,
  });
}

async function login(dir: string, profile: string, key: string, extra: string[] = []) {
  profiles.add(profile);
  return mtg(['auth', 'login', '--profile', profile, '--base-url', sandbox.baseUrl, ...extra], dir, {
    input: `${key}\n`,
  });
}

describe('auth login with a Secret Service', () => {
  it('stores the key in the store (service mtg, account = profile), not in the file, which keeps the base URL', async () => {
    const dir = configDir();
    const r = await login(dir, 'default', KEY);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Stored in the Secret Service \(service "mtg", account "default"\)/);
    expect(r.stderr).not.toMatch(/No credential store/);
    expect(secretTool('lookup', 'default')).toBe(KEY);
    expect(readConfig(dir).profiles.default).toEqual({ 'base-url': sandbox.baseUrl });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(KEY);
    // `config get` reads the file only: it points at `auth status` rather than saying "no key".
    const get = await mtg(['config', 'get', 'api-key'], dir);
    expect(get.code).toBe(1);
    expect(get.stderr).toMatch(
      /api-key is not set for profile "default" in the config file; `mtg auth status` shows/,
    );
  });

  it('commands use the stored key; status names the keychain; logout removes it from the store', async () => {
    const dir = configDir();
    expect((await login(dir, 'default', KEY)).code).toBe(0);
    const list = await mtg(['people', 'list', '--json', '--limit', '2'], dir);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(2);
    const status = await mtg(['auth', 'status', '--json'], dir);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ keySource: 'keychain', verified: true });
    expect(status.stdout).not.toContain(KEY);

    const logout = await mtg(['auth', 'logout'], dir);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toMatch(/Removed the API key of profile "default" from the Secret Service/);
    expect(secretTool('lookup', 'default')).toBeUndefined();
    const after = await mtg(['auth', 'status', '--json'], dir);
    expect(after.code).toBe(3);
    expect(JSON.parse(after.stdout)).toMatchObject({ keySource: 'none', key: null });
  });

  it('MTG_API_KEY and --api-key come before the stored key', async () => {
    const dir = configDir();
    expect((await login(dir, 'default', KEY)).code).toBe(0);
    const env = await mtg(['auth', 'status', '--json'], dir, { env: { MTG_API_KEY: WORK_KEY } });
    expect(JSON.parse(env.stdout)).toMatchObject({ keySource: 'env', key: expect.stringMatching(/…rk99$/) });
    const flag = await mtg(['auth', 'status', '--json', '--api-key', WORK_KEY], dir);
    expect(JSON.parse(flag.stdout)).toMatchObject({ keySource: 'flag' });
  });

  it('profiles have entries of their own: logging one out leaves the other', async () => {
    const dir = configDir();
    expect((await login(dir, 'default', KEY)).code).toBe(0);
    expect((await login(dir, 'work', WORK_KEY)).code).toBe(0);
    expect(secretTool('lookup', 'default')).toBe(KEY);
    expect(secretTool('lookup', 'work')).toBe(WORK_KEY);
    const work = await mtg(['auth', 'status', '--json', '--profile', 'work'], dir);
    expect(JSON.parse(work.stdout)).toMatchObject({
      profile: 'work',
      keySource: 'keychain',
      key: expect.stringMatching(/…rk99$/),
    });
    expect((await mtg(['auth', 'logout', '--profile', 'work'], dir)).code).toBe(0);
    expect(secretTool('lookup', 'work')).toBeUndefined();
    expect(secretTool('lookup', 'default')).toBe(KEY);
    const home = await mtg(['people', 'list', '--json', '--limit', '1'], dir);
    expect(home.code, home.stderr).toBe(0);
  });
});

describe('the config file while a Secret Service is there', () => {
  it('--insecure-storage stores in the file on purpose and removes an older key from the store', async () => {
    const dir = configDir();
    expect((await login(dir, 'default', WORK_KEY)).code).toBe(0);
    const r = await login(dir, 'default', KEY, ['--insecure-storage']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/No credential store/);
    expect(readConfig(dir).profiles.default['api-key']).toBe(KEY);
    expect(secretTool('lookup', 'default')).toBeUndefined();
    const status = await mtg(['auth', 'status', '--json'], dir);
    expect(JSON.parse(status.stdout)).toMatchObject({ keySource: 'config file', verified: true });
  });

  it('--insecure-storage whose file write fails leaves the stored key in the store (the key is never nowhere)', async () => {
    const dir = configDir();
    expect((await login(dir, 'default', WORK_KEY)).code).toBe(0);
    // Another mtg holds the config file's lock (fresh, so not broken as stale): the write gives up.
    writeFileSync(join(dir, 'config.json.lock'), '1');
    const r = await login(dir, 'default', KEY, ['--insecure-storage']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/config file is locked by another mtg process/);
    expect(secretTool('lookup', 'default')).toBe(WORK_KEY);
    rmSync(join(dir, 'config.json.lock'));
    const status = await mtg(['auth', 'status', '--json'], dir);
    expect(JSON.parse(status.stdout)).toMatchObject({ keySource: 'keychain', verified: true });
  });

  it('a key already in the file keeps working; status says how to move it; --move-to-keychain moves it', async () => {
    const dir = configDir();
    profiles.add('default');
    const old = { profiles: { default: { 'api-key': KEY, 'base-url': sandbox.baseUrl } } };
    writeFileSync(join(dir, 'config.json'), JSON.stringify(old, undefined, '\t'), { mode: 0o600 });
    const list = await mtg(['people', 'list', '--json', '--limit', '1'], dir);
    expect(list.code, list.stderr).toBe(0);
    const status = await mtg(['auth', 'status', '--json'], dir);
    expect(JSON.parse(status.stdout)).toMatchObject({ keySource: 'config file', verified: true });
    expect(status.stderr).toMatch(/move it to the Secret Service with `mtg auth login --move-to-keychain`/);

    const move = await mtg(['auth', 'login', '--move-to-keychain'], dir);
    expect(move.code, move.stderr).toBe(0);
    expect(secretTool('lookup', 'default')).toBe(KEY);
    expect(readConfig(dir).profiles.default).toEqual({ 'base-url': sandbox.baseUrl });
    const moved = await mtg(['auth', 'status', '--json'], dir);
    expect(JSON.parse(moved.stdout)).toMatchObject({ keySource: 'keychain', verified: true });
    expect(moved.stderr).toBe('');
  });

  it('logout removes the key from both the store and the file when both hold one', async () => {
    const dir = configDir();
    expect((await login(dir, 'default', KEY)).code).toBe(0);
    const both = { profiles: { default: { 'api-key': WORK_KEY, 'base-url': sandbox.baseUrl } } };
    writeFileSync(join(dir, 'config.json'), JSON.stringify(both), { mode: 0o600 });
    // The store comes before the file.
    const status = await mtg(['auth', 'status', '--json'], dir);
    expect(JSON.parse(status.stdout)).toMatchObject({
      keySource: 'keychain',
      key: expect.stringMatching(/…ng01$/),
    });
    const r = await mtg(['auth', 'logout'], dir);
    expect(r.stderr).toMatch(/from the config file .* and the Secret Service/);
    expect(secretTool('lookup', 'default')).toBeUndefined();
    expect(readConfig(dir).profiles.default['api-key']).toBeUndefined();
  });

  it('with no session bus, the same machine falls back to the file and says so, naming it', async () => {
    const dir = configDir();
    const r = await runCli(['auth', 'login', '--base-url', sandbox.baseUrl], {
      env: { MTG_CONFIG_DIR: dir },
      input: KEY,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`the key is stored in the config file ${join(dir, 'config.json')}`);
    expect(secretTool('lookup', 'default')).toBeUndefined();
  });
});

describe('a locked Secret Service', () => {
  it('is an error naming the store and saying how to unlock it (exit 1), not a fall back to the file', async () => {
    const dir = configDir();
    expect((await login(dir, 'default', KEY)).code).toBe(0);
    const dbusSend = (method: 'Lock') =>
      execFileSync('dbus-send', [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.secrets',
        '/org/freedesktop/secrets',
        `org.freedesktop.Secret.Service.${method}`,
        'array:objpath:/org/freedesktop/secrets/collection/login',
      ]);
    dbusSend('Lock');
    try {
      const r = await mtg(['people', 'list', '--json', '--limit', '1'], dir);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^mtg: The Secret Service is locked .*unlock it .*gnome-keyring-daemon --unlock/,
      );
    } finally {
      // Unlocking asks for a prompt that this bus cannot show: a new daemon, unlocked, takes over.
      execFileSync('gnome-keyring-daemon', ['--replace', '--unlock', '--components=secrets'], {
        input: 'pw',
        stdio: ['pipe', 'ignore', 'ignore'],
      });
    }
    expect(secretTool('lookup', 'default')).toBe(KEY);
  });
});
