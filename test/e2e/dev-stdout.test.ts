// -o /dev/stdout (issue 9.1): the link to the process's own fd 1 stays a link and the data arrive
// on stdout. A real process: /dev/stdout is /proc/self/fd/1, the stdout of whoever opens it.
import { lstatSync, rmSync, symlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runRecorded } from '../helpers/recorded.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ limits: 'none', pageSize: 50, sizes: { actionItems: 120 } });
});
afterAll(async () => {
  await sandbox.close();
  // Never leave the machine without its /dev/stdout link, whatever a failing run did to it.
  if (!lstatSync('/dev/stdout').isSymbolicLink()) {
    rmSync('/dev/stdout', { force: true });
    symlinkSync('/proc/self/fd/1', '/dev/stdout');
  }
});

const LIST = ['action-items', 'list', '--assignee', 'anyone', '--status', 'all'];

describe('-o onto what is not a regular file (9.1)', () => {
  it('/dev/stdout is our stdout: the data arrives there and the link stays a link', async () => {
    const r = await runRecorded(sandbox, [...LIST, '--format', 'ndjson', '-o', '/dev/stdout']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(120);
    expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);
  });
});
