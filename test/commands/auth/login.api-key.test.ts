// `mtg auth login --api-key KEY` (issue #20, 5): the key verified and stored without reading stdin
// or prompting, a wrong one stored nowhere; with --move-to-keychain it is a usage error.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { tempConfigDir } from '../../helpers/cli.js';
import { sandboxTest } from '../../helpers/fixtures.js';
import { runInProcess } from '../../helpers/inprocess.js';

const test = sandboxTest({ limits: 'none' });

describe('auth login --api-key', () => {
  test('verifies and stores the given key without reading stdin or prompting; a wrong one stores nothing', async ({
    sandbox,
    configDir: dir,
  }) => {
    const r = await runInProcess(
      ['auth', 'login', '--api-key', sandbox.apiKey, '--base-url', sandbox.baseUrl],
      {
        env: { MTG_CONFIG_DIR: dir },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Logged in to .* as profile "default"/);
    const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(stored.profiles.default['api-key']).toBe(sandbox.apiKey);

    const other = tempConfigDir();
    const bad = await runInProcess(
      ['auth', 'login', '--api-key', 'mtg_sk_wrong_0000000000', '--base-url', sandbox.baseUrl],
      {
        env: { MTG_CONFIG_DIR: other },
      },
    );
    expect(bad.code).toBe(3);
    expect(() => readFileSync(join(other, 'config.json'), 'utf8')).toThrow();
  });

  test('with --move-to-keychain (which moves the key already in the file) is exit 2, nothing changed', async ({
    sandbox,
    configDir: dir,
  }) => {
    const r = await runInProcess(['auth', 'login', '--move-to-keychain', '--api-key', sandbox.apiKey], {
      env: { MTG_CONFIG_DIR: dir },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mtg: --api-key .*--move-to-keychain/);
    expect(() => readFileSync(join(dir, 'config.json'), 'utf8')).toThrow();
  });
});
