// App URLs named as such (issue #20, 7): `config set app-url` and MTG_APP_URL are checked as app
// URLs, and a bad MTG_APP_URL matters only where links are made (meetings view, export), not to
// sync, find or an offline list.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

let sandbox: Sandbox;
const dirs: string[] = [];
const configDir = () => {
  const dir = tempConfigDir();
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  sandbox = await startSandbox({ limits: 'none' });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('app URLs', () => {
  it('config set app-url with a non-URL says "Invalid app URL", exit 2, nothing stored', async () => {
    const dir = configDir();
    const r = await runInProcess(['config', 'set', 'app-url', 'not a url'], { env: { MTG_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mtg: Invalid app URL "not a url"/);
    expect(r.stderr).not.toMatch(/base URL/);
  });

  it('a MTG_APP_URL that is not an http(s) URL is exit 2, one line naming MTG_APP_URL', async () => {
    const env = sandboxEnv(sandbox, { MTG_CONFIG_DIR: configDir() });
    const list = await runInProcess(['meetings', 'list', '--json', '--limit', '1'], { env });
    const id = (JSON.parse(list.stdout) as { id: string }[])[0]!.id;
    for (const bad of ['not a url', 'ftp://app.example.com']) {
      const r = await runInProcess(['meetings', 'view', id, '--web'], { env: { ...env, MTG_APP_URL: bad } });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^mtg: MTG_APP_URL /);
    }
    const ok = await runInProcess(['meetings', 'view', id, '--web'], {
      env: { ...env, MTG_APP_URL: 'https://app.example.com/' },
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim()).toBe(`https://app.example.com/meetings/${encodeURIComponent(id)}`);
  });
});

describe('a bad MTG_APP_URL matters only where the app URL is used', () => {
  it('sync, find and an offline list run as usual; meetings view and export (which make links) are exit 2 naming it', async () => {
    const data = configDir();
    const env = sandboxEnv(sandbox, {
      MTG_CONFIG_DIR: configDir(),
      MTG_DATA_DIR: data,
      MTG_APP_URL: 'not a url',
    });
    const sync = await runInProcess(['sync', '--quiet'], { env });
    expect(sync.code, sync.stderr).toBe(0);
    const list = await runInProcess(['meetings', 'list', '--offline', '--json', '--limit', '20'], { env });
    expect(list.code, list.stderr).toBe(0);
    const named = (JSON.parse(list.stdout) as { id: string; name: string | null }[]).filter((m) =>
      /\b[A-Za-z]{3,}\b/.test(m.name ?? ''),
    );
    const meeting = named[0]!;
    const word = /\b[A-Za-z]{3,}\b/.exec(meeting.name!)![0];
    const find = await runInProcess(['find', word, '--json'], { env });
    expect(find.code, find.stderr).toBe(0);
    expect(find.stderr).not.toMatch(/MTG_APP_URL/);
    for (const args of [
      ['meetings', 'view', meeting.id],
      ['meetings', 'view', meeting.id, '--web'],
      ['export', 'markdown', join(data, 'out'), '--sync'],
    ]) {
      const r = await runInProcess(args, { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^mtg: MTG_APP_URL is not a valid app URL \("not a url"\)/);
    }
    expect(() => readFileSync(join(data, 'out'))).toThrow();
  });
});
