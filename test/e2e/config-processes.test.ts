// The config file between processes: eight `auth login` processes at once lose no profile (the
// file's lock is between processes), and with no usable home nothing is written into the working
// folder (a process's own cwd). Real processes: several at once, each with its cwd.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { sandboxesTest as it } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/temp.js';

const KEY = 'mtg_sk_test_C0nfigC0nfigC0nfig0123';
const OPTIONS: SandboxOptions = { limits: 'none', apiKeys: [KEY] };

describe('concurrent logins (#16.5)', () => {
  it('eight logins at once keep all eight profiles with their base URLs, three times over', async ({
    openSandbox,
  }) => {
    const sandboxes = await Promise.all([openSandbox(OPTIONS), openSandbox(OPTIONS)]);
    for (let round = 0; round < 3; round++) {
      const dir = tempConfigDir();
      const urls = Array.from({ length: 8 }, (_, i) => sandboxes[i % 2]!.baseUrl);
      const results = await Promise.all(
        urls.map((url, i) =>
          runCli(['auth', 'login', '--profile', `p${i}`, '--base-url', url], {
            env: { MTG_CONFIG_DIR: dir },
            input: KEY,
            timeoutMs: 60_000,
          }),
        ),
      );
      for (const r of results) expect(r.code, r.stderr).toBe(0);
      const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles;
      expect(Object.keys(stored).sort()).toEqual(urls.map((_, i) => `p${i}`));
      urls.forEach((url, i) => {
        expect(stored[`p${i}`]).toEqual({ 'api-key': KEY, 'base-url': url.replace(/\/$/, '') });
      });
      // No lock or temp file is left behind.
      expect(readdirSync(dir)).toEqual(['config.json']);
    }
  }, 120_000);
});

describe('no usable home (#16.6)', () => {
  const noHome = (HOME: string | undefined) => ({
    HOME,
    MTG_CONFIG_DIR: '',
    XDG_CONFIG_HOME: undefined,
  });

  it.for([[''], ['relative/home'], [undefined]])(
    'HOME=%j: auth login refuses to store the key, exit 2',
    async ([home], { openSandbox }) => {
      const cwd = tempDir('mtg-test-cwd-');
      const sandbox = await openSandbox(OPTIONS);
      const r = await runCli(['auth', 'login', '--base-url', sandbox.baseUrl], {
        env: noHome(home),
        input: KEY,
        cwd,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/MTG_CONFIG_DIR/);
      expect(readdirSync(cwd)).toEqual([]);
      expect(existsSync(join(cwd, '.config'))).toBe(false);
    },
  );

  it('config set refuses too; reading commands given env keys still work', async ({ openSandbox }) => {
    const sandbox = await openSandbox(OPTIONS);
    const cwd = tempDir('mtg-test-cwd-');
    const set = await runCli(['config', 'set', 'app-url', 'https://app.example.com'], {
      env: noHome(''),
      cwd,
    });
    expect(set.code).toBe(2);
    expect(set.stderr).toMatch(/MTG_CONFIG_DIR/);
    const list = await runCli(['people', 'list', '--json', '--limit', '1'], {
      env: { ...noHome(''), MTG_API_KEY: KEY, MTG_BASE_URL: sandbox.baseUrl },
      cwd,
    });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(1);
    expect(readdirSync(cwd)).toEqual([]);
  });
});
