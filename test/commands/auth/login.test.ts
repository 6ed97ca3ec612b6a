// `mtg auth login` in-process against the sandbox: the key verified with one request and stored
// (config file 0600 in a 0700 folder when there is no credential store), or refused.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { tempConfigDir } from '../../helpers/cli.js';
import { sandboxTest } from '../../helpers/fixtures.js';
import { runInProcess } from '../../helpers/inprocess.js';

const test = sandboxTest({ pageSize: 7, limits: '1000/1s' });

describe('auth login', () => {
  test('auth login verifies the key with one request and, with no credential store (no session bus), stores it with mode 0600 in a 0700 folder and says so', async ({
    sandbox,
  }) => {
    const dir = join(tempConfigDir(), 'nested');
    const before = sandbox.requests.length;
    const r = await runInProcess(['auth', 'login', '--base-url', sandbox.baseUrl], {
      env: { MTG_CONFIG_DIR: dir },
      stdin: `${sandbox.apiKey}\n`,
    });
    expect(r.code).toBe(0);
    expect(sandbox.requests.length - before).toBe(1);
    const file = join(dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default['api-key']).toBe(sandbox.apiKey);
    expect(r.stdout + r.stderr).not.toContain(sandbox.apiKey);
    expect(r.stderr).toMatch(/^mtg: No credential store here \(no D-Bus session bus/m);
    expect(r.stderr).toContain(`the key is stored in the config file ${file}`);

    const status = await runInProcess(['auth', 'status', '--json'], { env: { MTG_CONFIG_DIR: dir } });
    expect(status.code).toBe(0);
    const info = JSON.parse(status.stdout);
    expect(info).toMatchObject({ profile: 'default', keySource: 'config file', verified: true });
    expect(info.key).not.toContain(sandbox.apiKey.slice(8, -4));
    expect(info.rateLimit.limit).toBeGreaterThan(0);

    const listed = await runInProcess(['config', 'list', '--json'], { env: { MTG_CONFIG_DIR: dir } });
    expect(JSON.parse(listed.stdout)).toContainEqual({
      profile: 'default',
      key: 'base-url',
      value: sandbox.baseUrl,
    });
    expect(listed.stdout).not.toContain(sandbox.apiKey);
  });

  test('auth login with a wrong key exits 3 and stores nothing', async ({ sandbox, configDir: dir }) => {
    const r = await runInProcess(['auth', 'login', '--base-url', sandbox.baseUrl, '--profile', 'work'], {
      env: { MTG_CONFIG_DIR: dir },
      stdin: 'mtg_sk_wrong\n',
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^mtg: /);
    const file = join(dir, 'config.json');
    if (existsSync(file)) expect(JSON.parse(readFileSync(file, 'utf8')).profiles.work).toBeUndefined();
  });

  test('says how to set a base URL when there is none, and mentions the sandbox (exit 2)', async () => {
    const r = await runInProcess(['auth', 'login'], { stdin: 'k\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('mtg sandbox');
  });
});
