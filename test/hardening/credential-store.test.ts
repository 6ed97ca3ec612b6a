// The credential store where there is none, or where it does not answer (issue #24). No real store
// is involved: the "bus" here is a unix socket that accepts connections and never says a word,
// as a wedged session bus does. The tests with a real Secret Service are in test/keyring/ (run by
// .ci/run under a private session bus). The helper process's environment, read from /proc:
// test/e2e/keychain-helper.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { type SilentBus, startSilentBus } from '../helpers/silent-bus.js';
import { tempDir } from '../helpers/temp.js';
import { runBounded } from './helpers.js';

const KEY = 'mtg_sk_test_St0reSt0reSt0re0123';
let sandbox: Sandbox;
let work: string;
let bus: SilentBus;
let busAddress: string;

beforeAll(async () => {
  sandbox = await startSandbox({ limits: 'none', apiKeys: [KEY] });
  work = tempDir('mtg-test-store-');
  bus = await startSilentBus(work);
  busAddress = bus.address;
});
afterAll(async () => {
  await bus.close();
  await sandbox.close();
});

/** A config folder whose file holds this profile's key (as `auth login` wrote it before the store). */
function fileWithKey(): string {
  const dir = tempConfigDir();
  const profiles = { default: { 'api-key': KEY, 'base-url': sandbox.baseUrl } };
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
  return dir;
}

/** A config folder with the base URL and no key: the key could only come from the store. */
function fileWithoutKey(): string {
  const dir = tempConfigDir();
  const profiles = { default: { 'base-url': sandbox.baseUrl } };
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
  return dir;
}

describe('a session bus that accepts connections and never answers', () => {
  // The first three each wait out the store's 5 s bound, side by side; the bus's connection count
  // checked further on is read after them (a concurrent test runs with its neighbours only).
  it.concurrent('a command needing a key only the store could give fails naming the Secret Service and the bus (bounded, never a hang), exit 1', async () => {
    const r = await runBounded(
      ['people', 'list', '--json', '--limit', '1'],
      { env: { MTG_CONFIG_DIR: fileWithoutKey(), DBUS_SESSION_BUS_ADDRESS: busAddress } },
      20_000,
    );
    expect(r.finished).toBe(true);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^mtg: The Secret Service \(on the D-Bus session bus at unix:path=.*bus\.sock\) did not answer within 5 s/,
    );
    expect(r.stderr).toMatch(/unlock it .*MTG_API_KEY/);
  });

  it.concurrent('a key in the config file keeps working: one warning line naming the store, then the command runs', async () => {
    const r = await runBounded(
      ['people', 'list', '--json', '--limit', '1', '--quiet'],
      { env: { MTG_CONFIG_DIR: fileWithKey(), DBUS_SESSION_BUS_ADDRESS: busAddress } },
      20_000,
    );
    expect(r.finished).toBe(true);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^mtg: warning: The Secret Service .* did not answer within 5 s; using the key in the config file$/m,
    );
  });

  it.concurrent('auth login fails the same way and stores the key nowhere', async () => {
    const dir = tempConfigDir();
    const r = await runInProcess(['auth', 'login', '--base-url', sandbox.baseUrl], {
      env: { MTG_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: busAddress },
      stdin: KEY,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/The Secret Service .* did not answer within 5 s; nothing was changed/);
    expect(() => readFileSync(join(dir, 'config.json'), 'utf8')).toThrow();
  });

  it('a command given the key by MTG_API_KEY or --api-key never touches the store: it runs as usual', async () => {
    const env = { MTG_CONFIG_DIR: fileWithKey(), DBUS_SESSION_BUS_ADDRESS: busAddress };
    const before = bus.connections();
    const byEnv = await runInProcess(['people', 'list', '--json', '--limit', '1'], {
      env: { ...env, MTG_API_KEY: KEY },
    });
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(JSON.parse(byEnv.stdout)).toHaveLength(1);
    const byFlag = await runInProcess(['people', 'list', '--json', '--limit', '1', '--api-key', KEY], {
      env,
    });
    expect(byFlag.code, byFlag.stderr).toBe(0);
    const status = await runInProcess(['auth', 'status', '--json'], { env: { ...env, MTG_API_KEY: KEY } });
    expect(JSON.parse(status.stdout)).toMatchObject({ keySource: 'env', verified: true });
    // Nobody connected to the bus.
    expect(bus.connections()).toBe(before);
  });
});

describe('no credential store reachable (no session bus)', () => {
  it('a key in the config file keeps working and status names the config file, without a hint to move it', async () => {
    const env = { MTG_CONFIG_DIR: fileWithKey() };
    const r = await runInProcess(['people', 'list', '--json', '--limit', '1'], { env });
    expect(r.code, r.stderr).toBe(0);
    const status = await runInProcess(['auth', 'status', '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ keySource: 'config file', verified: true });
    expect(status.stderr).toBe('');
  });

  it('a bus address that leads nowhere (a stale session) is no store: the key goes to the file, never the kernel keyring', async () => {
    // The library, unpinned, would fall back to the kernel keyring here, which a reboot empties.
    const dir = tempConfigDir();
    const r = await runInProcess(['auth', 'login', '--base-url', sandbox.baseUrl], {
      env: { MTG_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(work, 'no-such-bus')}` },
      stdin: KEY,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^mtg: No credential store here \(no Secret Service on the session bus/m);
    expect(r.stderr).toContain(`the key is stored in the config file ${join(dir, 'config.json')}`);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default['api-key']).toBe(KEY);
  });

  it('--move-to-keychain says there is no store and leaves the key in the file (exit 2)', async () => {
    const dir = fileWithKey();
    const r = await runInProcess(['auth', 'login', '--move-to-keychain'], { env: { MTG_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /No credential store here \(no D-Bus session bus.*the key stays in the config file/,
    );
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default['api-key']).toBe(KEY);
  });

  it('auth login --insecure-storage stores the key in the file on purpose: no line about a missing store', async () => {
    const dir = tempConfigDir();
    const r = await runInProcess(['auth', 'login', '--insecure-storage', '--base-url', sandbox.baseUrl], {
      env: { MTG_CONFIG_DIR: dir },
      stdin: KEY,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/No credential store/);
    expect(r.stderr).toContain(`Stored in ${join(dir, 'config.json')}`);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default['api-key']).toBe(KEY);
  });

  it('a keyring module whose native part cannot load (installed with --omit=optional) is no store, not an error', async () => {
    // The library's own override of where its native binary is: here a file that is not there.
    const unloadable = { NAPI_RS_NATIVE_LIBRARY_PATH: join(work, 'no-such-keyring.node') };
    const before = bus.connections();
    const env = { MTG_CONFIG_DIR: fileWithKey(), DBUS_SESSION_BUS_ADDRESS: busAddress, ...unloadable };
    const r = await runInProcess(['people', 'list', '--json', '--limit', '1', '--quiet'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const status = await runInProcess(['auth', 'status', '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ keySource: 'config file', verified: true });
    const dir = tempConfigDir();
    const login = await runInProcess(['auth', 'login', '--base-url', sandbox.baseUrl], {
      env: { MTG_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: busAddress, ...unloadable },
      stdin: KEY,
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(
      /^mtg: No credential store here \(the @napi-rs\/keyring module cannot be loaded/m,
    );
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default['api-key']).toBe(KEY);
    expect(bus.connections()).toBe(before);
  });

  it('auth logout removes a key from the file', async () => {
    const dir = fileWithKey();
    const r = await runInProcess(['auth', 'logout'], { env: { MTG_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Removed the API key of profile "default" from the config file/);
    expect(
      JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default['api-key'],
    ).toBeUndefined();
  });
});
