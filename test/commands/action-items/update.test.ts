// `mtg action-items update` in-process against the sandbox: one ID or many (from --stdin too), concurrently,
// failures one by one and their exit codes.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { runRecordedInProcess } from '../../helpers/recorded.js';

let sandbox: Sandbox;
let slow: Sandbox;

beforeAll(async () => {
  [sandbox, slow] = await Promise.all([
    startSandbox({ port: 0, pageSize: 10, limits: 'none' }),
    // Latency makes overlapping requests observable in the recorded arrival times.
    startSandbox({ port: 0, limits: 'none', latencyMs: 150 }),
  ]);
});

afterAll(async () => {
  await Promise.all([sandbox?.close(), slow?.close()]);
});

const run = (args: string[], options: { input?: string; sb?: Sandbox } = {}) =>
  runRecordedInProcess(options.sb ?? sandbox, args, options);

describe('action-items update', () => {
  it('updates one item and prints it in each format', async () => {
    const r = await run(['action-items', 'update', '1', '--status', 'done', '--title', 'Renamed', '--json']);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['PUT', '/action-item/1', { title: 'Renamed', status: 'DONE' }],
    ]);
    expect(JSON.parse(r.stdout)).toEqual([
      expect.objectContaining({ id: 1, title: 'Renamed', status: 'DONE' }),
    ]);
    expect(r.stderr).toContain('Updated 1 of 1 action item');

    const csv = await run(['action-items', 'update', '1', '--description', '=1+1', '--format', 'csv']);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => [row.id, row.description])).toEqual([['1', "'=1+1"]]);

    const table = await run(['action-items', 'update', '1', '--status', 'pending', '--format', 'table']);
    expect(table.stdout).toMatch(/^id\s+status\s+title/);
    expect(table.stdout).toMatch(/\n1\s+PENDING\s+Renamed/);
  });

  it('--assignee none unassigns (null); a profile ID assigns', async () => {
    const r = await run(['action-items', 'update', '2', '--assignee', 'none', '--json']);
    expect(r.code).toBe(0);
    expect(r.requests[0]!.body).toEqual({ assigneeProfileId: null });
    const a = await run(['action-items', 'update', '2', '--assignee', '7', '--json']);
    expect(a.requests[0]!.body).toEqual({ assigneeProfileId: 7 });
  });

  it('reads IDs from --stdin (plain lines, NDJSON, or tsv from list) and drops duplicates', async () => {
    const r = await run(['action-items', 'update', '4', '--stdin', '--status', 'DONE', '--json'], {
      input: '5\n{"id":6}\n4\n5\n',
    });
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => q.path)).toEqual(['/action-item/4', '/action-item/5', '/action-item/6']);
    expect(JSON.parse(r.stdout).map((i: { id: number }) => i.id)).toEqual([4, 5, 6]);

    const listed = await run(['action-items', 'list', '--assignee', 'anyone', '--limit', '3']);
    const piped = await run(['action-items', 'update', '--stdin', '--status', 'DONE', '--json'], {
      input: listed.stdout,
    });
    expect(piped.code).toBe(0);
    expect(piped.requests).toHaveLength(3);
  });

  it('a JSON-quoted line on --stdin (jq without -r) is the same error as for every --stdin', async () => {
    const r = await run(['action-items', 'update', '--stdin', '--status', 'DONE'], { input: '"1"\n' });
    expect(r.code).toBe(2);
    expect(r.requests).toHaveLength(0);
    expect(r.stderr).toMatch(
      /^mtg: stdin line 1: .* is a JSON string, not an? .*: pipe bare values \(jq -r\) or NDJSON objects with an? "\w+"/,
    );
  });

  it.each([
    [['1'], /nothing to update: give --title, --description, --status or --assignee/],
    [['0', '--status', 'done'], /action item ID must be a positive whole number, got "0"/],
    [['--status', 'done', '--', '-3'], /action item ID must be a positive whole number, got "-3"/],
    [['abc', '--status', 'done'], /action item ID must be a positive whole number, got "abc"/],
    [['--status', 'done'], /no action item IDs given/],
    [['1', '--status', 'maybe'], /Invalid --status "maybe". Valid values: PENDING, DONE/],
    [['1', '--status', 'all'], /Invalid --status "all"/],
    [['1', '--assignee', 'bob'], /--assignee must be a positive whole number/],
    [['1', '--title', ''], /--title must not be empty/],
    [['1', '--status', 'done', '--fields', 'nope'], /unknown field/],
  ])('rejects %j with exit 2 and sends nothing', async (args, message) => {
    const r = await run(['action-items', 'update', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n')[0]).toMatch(/^mtg: /);
    expect(r.requests).toEqual([]);
  });

  it('updates many IDs concurrently; unknown ones fail one by one and the exit code is 6', async () => {
    const known = Array.from({ length: 27 }, (_, i) => i + 1);
    const ids = [...known.slice(0, 10), 9001, ...known.slice(10, 20), 9002, ...known.slice(20), 9003];
    const r = await run(['action-items', 'update', ...ids.map(String), '--status', 'done', '--json'], {
      sb: slow,
    });
    expect(r.code).toBe(6);
    // stdout: every item in input order: the applied ones as the server sent them, the failed ones
    // as their outcome (id, error), so a script can tell them apart.
    const out = JSON.parse(r.stdout) as { id: number; outcome?: string; status?: string }[];
    expect(out.map((i) => i.id)).toEqual(ids);
    expect(out.filter((i) => !i.outcome).every((i) => i.status === 'DONE')).toBe(true);
    expect(out.filter((i) => i.outcome)).toEqual([
      {
        id: 9001,
        outcome: 'failed',
        error: { message: 'Action item 9001 not found', status: 404, code: 'NOT_FOUND' },
      },
      {
        id: 9002,
        outcome: 'failed',
        error: { message: 'Action item 9002 not found', status: 404, code: 'NOT_FOUND' },
      },
      {
        id: 9003,
        outcome: 'failed',
        error: { message: 'Action item 9003 not found', status: 404, code: 'NOT_FOUND' },
      },
    ]);
    const errLines = r.stderr.trim().split('\n');
    expect(errLines.filter((l) => l.startsWith('action item '))).toEqual([
      'action item 9001: Action item 9001 not found',
      'action item 9002: Action item 9002 not found',
      'action item 9003: Action item 9003 not found',
    ]);
    expect(errLines.at(-1)).toBe('Updated 27 of 30 action items; 3 failed');
    // Every ID was sent once, with the same body.
    const puts = r.requests.filter((q) => q.method === 'PUT');
    expect(puts.map((q) => q.path).sort()).toEqual(ids.map((id) => `/action-item/${id}`).sort());
    expect(puts.every((q) => JSON.stringify(q.body) === '{"status":"DONE"}')).toBe(true);
    // Concurrent, and at most 8 at once: as each PUT arrived, the sandbox counted the others it
    // was still answering (each answer takes 150 ms there, so a batch sent one by one finds none).
    const together = Math.max(...puts.map((q) => q.inFlight + 1));
    expect(together).toBeGreaterThan(1);
    expect(together).toBeLessThanOrEqual(8);
  });

  it('exits with the failure code itself when every update failed', async () => {
    const r = await run(['action-items', 'update', '9101', '9102', '--status', 'done', '--json']);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        id: 9101,
        outcome: 'failed',
        error: { message: 'Action item 9101 not found', status: 404, code: 'NOT_FOUND' },
      },
      {
        id: 9102,
        outcome: 'failed',
        error: { message: 'Action item 9102 not found', status: 404, code: 'NOT_FOUND' },
      },
    ]);
    expect(r.stderr).toContain('Updated 0 of 2 action items; 2 failed');

    const auth = await runInProcess(['action-items', 'update', '1', '2', '--status', 'done'], {
      env: sandboxEnv({ baseUrl: sandbox.baseUrl, apiKey: 'wrong-key' }),
    });
    expect(auth.code).toBe(3);
  });
});
