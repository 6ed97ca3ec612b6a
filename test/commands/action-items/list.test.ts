// `mtg action-items list` in-process against the sandbox: the filters sent, every page, each format.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { fetchAll as fetchAllOf, queryOf, runRecordedInProcess } from '../../helpers/recorded.js';

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
const query = queryOf;
const fetchAll = (path: string) => fetchAllOf(sandbox, path);

describe('action-items list', () => {
  it('--assignee anyone --json prints every item of every page', async () => {
    const expected = await fetchAll('/action-items?assigneeType=Anyone');
    expect(expected.length).toBeGreaterThan(10); // more than one page
    const r = await run(['action-items', 'list', '--assignee', 'anyone', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    expect(r.requests.length).toBe(Math.ceil(expected.length / 10));
    expect(query(r.requests[0]!)).toEqual({ assigneeType: ['Anyone'] });
  });

  it('sends no assignee or status filter when none is given (server defaults)', async () => {
    const r = await run(['action-items', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(query(r.requests[0]!)).toEqual({});
    expect(JSON.parse(r.stdout)).toEqual(await fetchAll('/action-items'));
  });

  it('--assignee 12 filters by profile; --status done is sent upper-case', async () => {
    const r = await run(['action-items', 'list', '--assignee', '12', '--status', 'done', '--json']);
    expect(r.code).toBe(0);
    expect(query(r.requests[0]!)).toEqual({
      assigneeType: ['Profile'],
      assigneeProfileId: ['12'],
      status: ['DONE'],
    });
    for (const item of JSON.parse(r.stdout)) {
      expect(item.assignee.profileId).toBe(12);
      expect(item.status).toBe('DONE');
    }
  });

  it('maps every assignee word, case-insensitively', async () => {
    const r = await run(['action-items', 'list', '--assignee', 'Outside-My-Workspace', '--json']);
    expect(r.code).toBe(0);
    expect(query(r.requests[0]!)).toEqual({ assigneeType: ['OutsideMyWorkspace'] });
    const u = await run(['action-items', 'list', '--assignee', 'UNASSIGNED', '--status', 'all', '--json']);
    expect(query(u.requests[0]!)).toEqual({ assigneeType: ['Unassigned'], status: ['ALL'] });
    for (const item of JSON.parse(u.stdout)) expect(item.assignee).toBeNull();
  });

  it('sends repeated attendee and tag filters; a team alone looks at anyone', async () => {
    const r = await run([
      'action-items',
      'list',
      '--attendee',
      '3',
      '--attendee',
      '5,7',
      '--tag',
      '2',
      '--assignee-team',
      '1',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(query(r.requests[0]!)).toEqual({
      assigneeType: ['Anyone'],
      assigneeTeamId: ['1'],
      attendeeProfileIds: ['3', '5', '7'],
      tagIds: ['2'],
    });
  });

  it('prints csv, tsv and a table', async () => {
    const expected = (await fetchAll('/action-items?assigneeType=Anyone')) as { id: number; title: string }[];
    const csv = await run(['action-items', 'list', '--assignee', 'anyone', '--format', 'csv']);
    expect(csv.code).toBe(0);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => Number(row.id))).toEqual(expected.map((i) => i.id));
    expect(Object.keys(rows[0]!)).toContain('assignee.name');

    const tsv = await run(['action-items', 'list', '--assignee', 'anyone']); // piped: tsv by default
    const lines = tsv.stdout.trimEnd().split('\n');
    expect(lines[0]!.split('\t').slice(0, 2)).toEqual(['id', 'title']);
    expect(lines.length).toBe(expected.length + 1);

    const table = await run(['action-items', 'list', '--assignee', 'anyone', '--format', 'table']);
    expect(table.stdout.split('\n')[0]).toMatch(/^id\s+status\s+title\s+assignee\.name\s+meetingIds$/);
    expect(table.stdout).not.toContain('\u001b'); // hostile titles are sanitized
  });

  it.each([
    [['--assignee', 'bogus'], /Invalid --assignee "bogus"/],
    [['--assignee', '0'], /--assignee must be a positive whole number/],
    [['--status', 'maybe'], /Invalid --status "maybe". Valid values: PENDING, DONE, ALL/],
    [['--attendee', 'abc'], /--attendee must be a positive whole number/],
    [['--tag', '3,-3'], /--tag must be a positive whole number/],
    [['--assignee-team', 'x'], /--assignee-team must be a positive whole number/],
    [['--fields', 'nope'], /unknown field/],
  ])('rejects %j with exit 2 and sends nothing', async (flags, message) => {
    const r = await run(['action-items', 'list', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.requests).toEqual([]);
  });
});
