// `mtg auth status` with no key anywhere (issue #20, 5): exit 3, one line saying so and how to set one.
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { tempConfigDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';

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

describe('auth status with nothing configured', () => {
  it('exits 3 with one line on stderr saying no key is set and how to set one', async () => {
    const r = await runInProcess(['auth', 'status'], {
      env: { MTG_CONFIG_DIR: configDir(), MTG_BASE_URL: sandbox.baseUrl },
    });
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^mtg: No API key for profile "default".*mtg auth login.*MTG_API_KEY/);
  });
});
