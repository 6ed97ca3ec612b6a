// Output into a full disk behind a shell redirect (Linux's /dev/full answers every write with
// ENOSPC): one line naming the cause, exit 1, no stack; also on the help fast path.
import { closeSync, openSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { BIN, cliEnv, sandboxEnv } from '../helpers/cli.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none' });
});
afterAll(async () => {
  await sandbox?.close();
});

/** mtg with its stdout on /dev/full (spawnSync: the sandbox runs in this process, so not here). */
async function intoFullDisk(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const { spawn } = await import('node:child_process');
  const full = openSync('/dev/full', 'w');
  try {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: cliEnv(sandboxEnv(sandbox)),
      stdio: ['ignore', full, 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, stderr };
  } finally {
    closeSync(full);
  }
}

describe('stdout on a full disk', () => {
  it.each([
    [['meetings', 'list', '--json']],
    [['meetings', 'list', '--format', 'csv', '--limit', '3']],
    [['--version']],
    [['meetings', 'list', '--help']],
  ])('%j: one line naming the cause, exit 1', async (args) => {
    const r = await intoFullDisk(args);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines.at(-1)).toBe('mtg: cannot write the output: no space left on the device (ENOSPC)');
    expect(r.stderr).not.toMatch(/unexpected|\n\s+at /);
  });
});
