// `action-items update` prints what the server returned and nothing else: the spec's update
// response (4.2) carries no assignee, so an assignee column would be blank and read as
// "unassigned". A list, where the assignee is sent (null when unassigned), keeps the column.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';

let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none', seed: 7 });
  env = sandboxEnv(sandbox, { NO_COLOR: '1' });
});

afterAll(async () => {
  await sandbox?.close();
});

describe('action-items update shows only what the server returned', () => {
  it('on a terminal: no assignee column (the response has none)', async () => {
    const json = await runInProcess(['action-items', 'update', '1', '--status', 'done', '--json'], { env });
    expect(JSON.parse(json.stdout)[0]).not.toHaveProperty('assignee');
    const r = await runInProcess(['action-items', 'update', '1', '2', '--status', 'done'], {
      env,
      tty: true,
      columns: 100,
    });
    expect(r.code).toBe(0);
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^id\s+status\s+title\s+meetingIds$/);
    expect(rows).toHaveLength(2);
  });

  it('csv and tsv: the response fields only', async () => {
    for (const format of ['csv', 'tsv']) {
      const r = await runInProcess(['action-items', 'update', '1', '--status', 'done', '--format', format], {
        env,
      });
      expect(r.code).toBe(0);
      const header = r.stdout.split('\n')[0]!;
      expect(header).not.toMatch(/assignee|canEditActionItem|completedAt/);
      expect(header.split(format === 'csv' ? ',' : '\t')).toEqual([
        'id',
        'title',
        'description',
        'status',
        'meetingIds',
      ]);
    }
  });

  it("--fields assignee.name is still the user's choice (blank where the server sent none)", async () => {
    const r = await runInProcess(
      ['action-items', 'update', '1', '--status', 'done', '--fields', 'id,assignee.name'],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('id\tassignee.name\n1\t\n');
  });

  it('action-items list keeps the assignee column: it is sent, null when unassigned', async () => {
    const r = await runInProcess(['action-items', 'list', '--assignee', 'anyone', '--limit', '3'], {
      env,
      tty: true,
      columns: 100,
    });
    expect(r.stdout.split('\n')[0]).toMatch(/^id\s+status\s+title\s+assignee\.name\s+meetingIds$/);
    const unassigned = await runInProcess(
      ['action-items', 'list', '--assignee', 'unassigned', '--limit', '3'],
      { env, tty: true, columns: 100 },
    );
    expect(unassigned.code).toBe(0);
    if (unassigned.stdout !== '') expect(unassigned.stdout.split('\n')[0]).toContain('assignee.name');
  });
});
