// --since/--until on `meetings list` and `meetings search`: in-process against a sandbox of about a
// year of meetings, counting the requests that reach it (fetching stops once past the window).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Meeting } from '../../../src/api/schemas.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { fetchAll, runRecordedInProcess } from '../../helpers/recorded.js';

const PAGE_SIZE = 10;
let sandbox: Sandbox;
/** Every meeting, newest first, as GET /meetings pages them. */
let meetings: Meeting[];

beforeAll(async () => {
  // About a year of meetings (they are 2 to 40 hours apart), in pages of 10.
  sandbox = await startSandbox({
    port: 0,
    pageSize: PAGE_SIZE,
    limits: 'none',
    sizes: { meetings: 420, actionItems: 200 },
  });
  meetings = (await fetchAll(sandbox, '/meetings')) as Meeting[];
});
afterAll(() => sandbox?.close());

const time = (iso: string) => Date.parse(iso);
const gets = (requests: { method: string; path: string }[], path: string) =>
  requests.filter((r) => r.method === 'GET' && r.path === path);

describe('--since/--until', () => {
  it('meetings list: a 7-day window over a year fetches only the first pages', async () => {
    const newest = time(meetings[0]!.createdAt);
    const oldest = time(meetings[meetings.length - 1]!.createdAt);
    expect(newest - oldest).toBeGreaterThan(300 * 86_400_000);
    const since = new Date(newest - 7 * 86_400_000).toISOString();
    const r = await runRecordedInProcess(sandbox, ['meetings', 'list', '--since', since, '--json']);
    expect(r.code).toBe(0);
    const expected = meetings.filter((m) => time(m.createdAt) >= Date.parse(since));
    expect(expected.length).toBeGreaterThan(0);
    expect((JSON.parse(r.stdout) as Meeting[]).map((m) => m.id)).toEqual(expected.map((m) => m.id));
    // Pages up to and including the first one whose meetings are all older than --since.
    const firstOlderPage = Math.ceil((expected.length + 1) / PAGE_SIZE);
    const allPages = Math.ceil(meetings.length / PAGE_SIZE);
    expect(gets(r.requests, '/meetings').length).toBeLessThanOrEqual(firstOlderPage + 1);
    expect(gets(r.requests, '/meetings').length).toBeLessThan(allPages / 5);
  });

  it('--limit counts the meetings in the window, and fetching stops once it has them', async () => {
    const until = meetings[100]!.createdAt; // exclusive: meetings[101] onwards (same instant aside)
    const r = await runRecordedInProcess(sandbox, [
      'meetings',
      'list',
      '--until',
      until,
      '--limit',
      '3',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const expected = meetings.filter((m) => time(m.createdAt) < time(until)).slice(0, 3);
    expect((JSON.parse(r.stdout) as Meeting[]).map((m) => m.id)).toEqual(expected.map((m) => m.id));
    expect(gets(r.requests, '/meetings').length).toBe(Math.floor(101 / PAGE_SIZE) + 1);
  });

  it('meetings search filters results as they arrive', async () => {
    const all = (await fetchAll(sandbox, '/search')) as Meeting[];
    const since = meetings[200]!.createdAt;
    const until = meetings[150]!.createdAt;
    const r = await runRecordedInProcess(sandbox, [
      'meetings',
      'search',
      '--since',
      since,
      '--until',
      until,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const expected = all.filter((m) => time(m.createdAt) >= time(since) && time(m.createdAt) < time(until));
    expect(expected.length).toBeGreaterThan(10);
    expect((JSON.parse(r.stdout) as Meeting[]).map((m) => m.id)).toEqual(expected.map((m) => m.id));
  });

  it.each([
    [['--since', 'last week'], /--since "last week" is not a date.*e\.g\. 2026-01-05/],
    [['--until', '2026-02-30'], /--until "2026-02-30".*no such day/],
    [['--since', '2026-01-06', '--until', '2026-01-05'], /--since .* is not earlier than --until/],
  ])('%j is exit 2 with an example, nothing sent', async (flags, message) => {
    const r = await runRecordedInProcess(sandbox, ['meetings', 'list', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    expect(r.requests).toHaveLength(0);
  });
});
