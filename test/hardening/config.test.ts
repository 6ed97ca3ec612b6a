// The config file: a corrupt or wrongly typed file is reported plainly (and ignored by commands that
// do not need it), with advice that works (issue #20, 7). Concurrent logins and no usable home need
// processes: test/e2e/config-processes.test.ts.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { sandboxTest } from '../helpers/fixtures.js';
import { runInProcess } from '../helpers/inprocess.js';

const KEY = 'mtg_sk_test_C0nfigC0nfigC0nfig0123';
// One sandbox for the file, started when a test first needs it.
const it = sandboxTest({ limits: 'none', apiKeys: [KEY] });

function configWith(text: string): { dir: string; file: string } {
  const dir = tempConfigDir();
  const file = join(dir, 'config.json');
  writeFileSync(file, text, { mode: 0o600 });
  return { dir, file };
}

describe('a corrupt config file (#9.5)', () => {
  it('does not stop a command given key and base URL in the environment', async ({ sandbox }) => {
    const { dir } = configWith('{bad json');
    const r = await runInProcess(['people', 'list', '--json', '--limit', '2'], {
      env: { MTG_CONFIG_DIR: dir, MTG_API_KEY: KEY, MTG_BASE_URL: sandbox.baseUrl },
    });
    expect(r.stderr).not.toMatch(/config|JSON|unexpected/i);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
  });

  it('only warns when key and base URL are given and the file is asked for app-url alone', async ({
    sandbox,
  }) => {
    const { dir } = configWith('{bad json');
    const env = { MTG_CONFIG_DIR: dir, MTG_API_KEY: KEY, MTG_BASE_URL: sandbox.baseUrl };
    const list = await runInProcess(['meetings', 'list', '--json', '--limit', '1'], { env });
    const id = (JSON.parse(list.stdout) as { id: string }[])[0]!.id;
    const r = await runInProcess(['meetings', 'view', id, '--format', 'table'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(id);
    expect(r.stderr).toMatch(/warning: .*config\.json is not valid JSON/);
    expect(r.stderr).not.toMatch(/unexpected error/);
  });

  it.each([[['config', 'list']], [['config', 'get', 'base-url']], [['people', 'list']]])(
    'is named, called invalid JSON, with a fix, exit 2: mtg %j',
    async (args) => {
      const { dir, file } = configWith('{bad json');
      const r = await runInProcess(args, { env: { MTG_CONFIG_DIR: dir } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(file);
      expect(r.stderr).toMatch(/not valid JSON/);
      expect(r.stderr).toMatch(/mv .*config\.json\.bak/);
      expect(r.stderr).not.toMatch(/unexpected error/);
    },
  );

  it('is never replaced by auth login or config set (keys are not silently discarded)', async ({
    sandbox,
  }) => {
    const { dir, file } = configWith('{bad json');
    const login = await runInProcess(['auth', 'login', '--base-url', sandbox.baseUrl], {
      env: { MTG_CONFIG_DIR: dir },
      stdin: KEY,
    });
    expect(login.code).toBe(2);
    expect(login.stderr).toMatch(/not valid JSON/);
    const set = await runInProcess(['config', 'set', 'app-url', 'https://app.example.com'], {
      env: { MTG_CONFIG_DIR: dir },
    });
    expect(set.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('{bad json');
  });
});

describe('a config file with a wrongly typed key', () => {
  it('advises what works (an editor, or moving the file), not `mtg config set`/`unset`, which refuse it', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles":{"default":{"app-url":7}}}', { mode: 0o600 });
    const r = await runInProcess(['config', 'get', 'base-url'], { env: { MTG_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(file);
    expect(r.stderr).not.toMatch(/config set|config unset/);
    expect(r.stderr).toMatch(/editor/);
    // And config set/unset do refuse such a file: advice naming them could not work.
    const unset = await runInProcess(['config', 'unset', 'app-url'], { env: { MTG_CONFIG_DIR: dir } });
    expect(unset.code).toBe(2);
  });
});

describe('a config file with wrong types (#16.7)', () => {
  it.each([
    ['{"profiles":{"default":{"api-key":12345}}}', /profile "default", key "api-key" must be a string/],
    ['{"profiles":{"work":{"base-url":["x"]}}}', /profile "work", key "base-url" must be a string/],
    ['{"profiles":{"default":"x"}}', /profile "default" must be an object/],
    ['{"profiles":[]}', /"profiles" must be an object/],
    ['[1,2]', /must hold a JSON object/],
  ])('%s is reported with the file, the key and the expected type, exit 2', async (text, message) => {
    const { dir, file } = configWith(text);
    const profile = text.includes('"work"') ? ['--profile', 'work'] : [];
    const r = await runInProcess(['auth', 'status', ...profile], { env: { MTG_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/unexpected error|12345/);
    // One line, the advice once.
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.match(/in an editor/g)).toHaveLength(1);
  });

  it('a file written by earlier versions (conf, tab-indented, extra keys) still loads', async ({
    sandbox,
  }) => {
    const old = { profiles: { default: { 'api-key': KEY, 'base-url': sandbox.baseUrl } }, other: 1 };
    const { dir, file } = configWith(JSON.stringify(old, undefined, '\t'));
    const r = await runInProcess(['people', 'list', '--json', '--limit', '1'], {
      env: { MTG_CONFIG_DIR: dir },
    });
    expect(r.code).toBe(0);
    const set = await runInProcess(['config', 'set', 'app-url', 'https://app.example.com'], {
      env: { MTG_CONFIG_DIR: dir },
    });
    expect(set.code).toBe(0);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after).toEqual({
      profiles: { default: { ...old.profiles.default, 'app-url': 'https://app.example.com' } },
      other: 1,
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('config set base-url with plain http to another host', () => {
  it('is refused in words about storing (it sends nothing); --insecure stores it', async () => {
    const dir = tempConfigDir();
    const r = await runInProcess(['config', 'set', 'base-url', 'http://x.example.invalid'], {
      env: { MTG_CONFIG_DIR: dir },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^mtg: Refusing to store a plain-http base URL for x\.example\.invalid.*--insecure/,
    );
    expect(r.stderr).not.toMatch(/send the API key/);
    const ok = await runInProcess(['--insecure', 'config', 'set', 'base-url', 'http://x.example.invalid'], {
      env: { MTG_CONFIG_DIR: dir },
    });
    expect(ok.code).toBe(0);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toContain('http://x.example.invalid');
  });
});
