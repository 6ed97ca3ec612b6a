// Ctrl-C at the hidden key prompt of `auth login` (issue #20, 5): exit 130, the half-typed key
// never echoed nor stored. A real process on a pseudo-terminal: the key is typed at a pty.
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { runInTerminal } from '../helpers/terminal.js';

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

describe('Ctrl-C at the hidden key prompt', () => {
  it('exits 130 (interrupted), stores nothing', async () => {
    const dir = configDir();
    const r = await runInTerminal(['auth', 'login', '--base-url', sandbox.baseUrl], {
      env: { MTG_CONFIG_DIR: dir },
      type: { after: 'input hidden', keys: 'mtg_sk_half\u0003' },
    });
    expect(r.screen).toMatch(/Paste your API key/);
    expect(r.screen).not.toContain('mtg_sk_half');
    expect(r.code).toBe(130);
    const status = await runInProcess(['auth', 'status', '--json'], {
      env: { MTG_CONFIG_DIR: dir, MTG_BASE_URL: sandbox.baseUrl },
    });
    expect(JSON.parse(status.stdout).key).toBeNull();
  });
});
