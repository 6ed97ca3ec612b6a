// --since/--until, --jq and --dry-run end to end: the built CLI against the sandbox, counting the
// requests that reach it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Meeting } from '../../src/api/schemas.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/cli.js';
import { fetchAll, runRecorded } from '../helpers/recorded.js';
import { tempDir } from '../helpers/temp.js';

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
    const r = await runRecorded(sandbox, ['meetings', 'list', '--since', since, '--json']);
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

  it('a bare date is a whole local day, in the time zone of the machine', async () => {
    // Asia/Kolkata is UTC+05:30 all year: the local day D runs from D-1T18:30Z to DT18:30Z.
    const some = meetings[40]!;
    const local = new Date(time(some.createdAt) + 330 * 60_000).toISOString().slice(0, 10);
    const start = Date.parse(`${local}T00:00:00+05:30`);
    const end = start + 86_400_000;
    const r = await runRecorded(sandbox, ['meetings', 'list', '--since', local, '--until', local, '--json'], {
      env: { TZ: 'Asia/Kolkata' },
    });
    expect(r.code).toBe(0);
    const expected = meetings.filter((m) => time(m.createdAt) >= start && time(m.createdAt) < end);
    expect(expected.map((m) => m.id)).toContain(some.id);
    expect((JSON.parse(r.stdout) as Meeting[]).map((m) => m.id)).toEqual(expected.map((m) => m.id));
  });

  it('--limit counts the meetings in the window, and fetching stops once it has them', async () => {
    const until = meetings[100]!.createdAt; // exclusive: meetings[101] onwards (same instant aside)
    const r = await runRecorded(sandbox, ['meetings', 'list', '--until', until, '--limit', '3', '--json']);
    expect(r.code).toBe(0);
    const expected = meetings.filter((m) => time(m.createdAt) < time(until)).slice(0, 3);
    expect((JSON.parse(r.stdout) as Meeting[]).map((m) => m.id)).toEqual(expected.map((m) => m.id));
    expect(gets(r.requests, '/meetings').length).toBe(Math.floor(101 / PAGE_SIZE) + 1);
  });

  it('meetings search filters results as they arrive', async () => {
    const all = (await fetchAll(sandbox, '/search')) as Meeting[];
    const since = meetings[200]!.createdAt;
    const until = meetings[150]!.createdAt;
    const r = await runRecorded(sandbox, [
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
    const r = await runRecorded(sandbox, ['meetings', 'list', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    expect(r.requests).toHaveLength(0);
  });
});

// ---- --jq ----------------------------------------------------------------------------------

const hasJq = spawnSync('jq', ['--version']).status === 0;

/** The real jq over `input`, as `gh --jq` prints: raw strings, compact JSON. */
function realJq(expr: string, input: string): string {
  const r = spawnSync('jq', ['-r', '-c', expr], { input, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`jq ${expr}: ${r.stderr}`);
  return r.stdout;
}

describe('--jq', () => {
  const items = ['action-items', 'list', '--assignee', 'anyone', '--status', 'all'];
  const expressions = [
    '.[] | select(.status=="DONE") | .id',
    'map(.title) | length',
    'map({id, s: .status})',
    'group_by(.status) | map({status: .[0].status, n: length})',
    '.[] | [.id, .title, .status] | @csv',
    '.[] | [.id, .status, (.assignee.name // "-")] | @tsv',
    '.[] | "\\(.id): \\(.title) [\\(.status)]"',
    '.[] | .assignee.email // empty',
    '[.[] | select(.meetingIds | length > 1)] | first',
  ];

  it.each(expressions)('%s: the same output as the real jq on the --json document', async (expr) => {
    if (!hasJq) {
      console.warn('skipping the comparison with the real jq: no `jq` on PATH (apt-get install -y jq)');
    }
    const json = await runRecorded(sandbox, [...items, '--json']);
    expect(json.code).toBe(0);
    const r = await runRecorded(sandbox, [...items, '--jq', expr]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toBe('');
    if (hasJq) expect(r.stdout).toBe(realJq(expr, json.stdout));
  });

  it('runs over the whole document (every page as one array), strings printed raw', async () => {
    const all = await fetchAll(sandbox, '/meetings');
    const r = await runRecorded(sandbox, ['meetings', 'list', '--jq', 'length, .[0].id']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${all.length}\n${meetings[0]!.id}\n`);
    expect(gets(r.requests, '/meetings').length).toBe(Math.ceil(all.length / PAGE_SIZE));
  });

  it('--limit still stops the fetching early', async () => {
    const r = await runRecorded(sandbox, ['meetings', 'list', '--limit', '3', '--jq', 'map(.id)']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(meetings.slice(0, 3).map((m) => m.id));
    expect(gets(r.requests, '/meetings')).toHaveLength(1);
  });

  it('a syntax error is exit 2 before any request', async () => {
    const r = await runRecorded(sandbox, ['meetings', 'list', '--jq', '.[] | select(.id ==']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mtg: --jq: syntax error/);
    expect(r.stdout).toBe('');
    expect(r.requests).toHaveLength(0);
  });

  it("a runtime error is exit 1 with jq's message", async () => {
    const r = await runRecorded(sandbox, ['meetings', 'list', '--limit', '2', '--jq', '.[] | .name + 1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/jq: .*cannot be added/);
    expect(r.stdout).toBe('');
  });

  it('a runtime error after a write says the write was applied and a rerun would repeat it', async () => {
    const r = await runRecorded(sandbox, ['action-items', 'create', 'jq-applied', '--jq', '.title + 1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^mtg: the request was applied; --jq failed on its response: .*cannot be added; running the command again would repeat the write\n$/,
    );
    expect(r.requests.filter((q) => q.method === 'POST' && q.path === '/action-items')).toHaveLength(1);
    expect(r.stdout).toBe('');
    const api = await runRecorded(sandbox, [
      'api',
      '-X',
      'POST',
      '/tag',
      '-f',
      'name=jq-applied',
      '--jq',
      '.id + "x"',
    ]);
    expect(api.code, api.stderr).toBe(1);
    expect(api.stderr).toMatch(
      /^mtg: the request was applied; --jq failed on its response: .*would repeat the write/,
    );
    // A read that fails in jq is just a jq error.
    const read = await runRecorded(sandbox, ['meetings', 'list', '--limit', '1', '--jq', '.[0].id + 1']);
    expect(read.stderr).toMatch(/^mtg: jq: .*cannot be added$/m);
  });

  it('a runtime error after the whole list was fetched is one jq line: nothing stopped, nothing failed to write', async () => {
    const r = await runRecorded(sandbox, ['meetings', 'list', '--limit', '1', '--jq', '.[0].id + 1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^mtg: jq: .*cannot be added\n$/);
    const all = await runRecorded(sandbox, ['action-items', 'list', '--jq', '.[] | .id.x']);
    expect(all.code).toBe(1);
    expect(all.stderr).toBe('mtg: jq: Cannot index number with string "x"\n');
    expect(all.stdout).toBe('');
  });

  it('debug output goes to stderr as jq prints it; `input` past the document says so', async () => {
    const r = await runRecorded(sandbox, [
      'action-items',
      'list',
      '--limit',
      '2',
      '--jq',
      '.[] | .id | debug',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout.trim().split('\n');
    expect(ids).toHaveLength(2);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual(ids.map((id) => `["DEBUG:",${id}]`));
    expect(r.stderr).not.toContain('stderr:');
    // Debug lines printed before a runtime error are kept too, before the error.
    const failing = await runRecorded(sandbox, [
      'action-items',
      'list',
      '--limit',
      '1',
      '--jq',
      '.[0].id | debug | .x',
    ]);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/^\["DEBUG:",\d+\]\nmtg: jq: Cannot index number with string "x"\n$/);
    const input = await runRecorded(sandbox, ['action-items', 'list', '--limit', '1', '--jq', 'input']);
    expect(input.code).toBe(1);
    expect(input.stderr).toBe(
      'mtg: jq: no more inputs (--jq reads one input: the whole document the command prints)\n',
    );
  });

  it('counts meet their nouns in the singular: "1 meeting", "1 request"', async () => {
    const one = await runRecorded(sandbox, ['meetings', 'list', '--limit', '1', '--format', 'table']);
    expect(one.stderr).toMatch(/Showing the first 1 meeting;/);
    const dry = await runRecorded(sandbox, ['tags', 'create', 'x', '--dry-run']);
    expect(dry.stderr).toMatch(/Dry run: 1 request not sent\./);
  });

  it('implies json; another --format is exit 2, nothing sent', async () => {
    const r = await runRecorded(sandbox, ['meetings', 'list', '--format', 'csv', '--jq', '.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jq conflicts with --format csv/);
    expect(r.requests).toHaveLength(0);
  });

  it('works for single objects and for mtg api, and -o gets the filtered text', async () => {
    const tag = await runRecorded(sandbox, ['tags', 'create', 'jq-tag', '--jq', '.name']);
    expect(tag.code, tag.stderr).toBe(0);
    expect(tag.stdout).toBe('jq-tag\n');
    const file = join(tempDir('mtg-jq-'), 'count.txt');
    const api = await runRecorded(sandbox, ['api', '/people', '--paginate', '--jq', 'length', '-o', file]);
    expect(api.code).toBe(0);
    expect(api.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(`${(await fetchAll(sandbox, '/people')).length}\n`);
  });
});

// ---- --dry-run -----------------------------------------------------------------------------

describe('--dry-run', () => {
  /** No key and no base URL anywhere: a dry run needs neither. */
  const bare = (args: string[], input?: string) => runCli(args, { env: { MTG_API_KEY: undefined }, input });

  it.each([
    [
      ['action-items', 'create', 'Write it', '--assignee', '12'],
      'POST /action-items {"title":"Write it","assigneeProfileId":12}\n',
    ],
    [
      ['action-items', 'update', '4', '5', '--status', 'done'],
      'PUT /action-item/4 {"status":"DONE"}\nPUT /action-item/5 {"status":"DONE"}\n',
    ],
    [['tags', 'create', 'Hiring', '--description', 'x'], 'POST /tag {"name":"Hiring","description":"x"}\n'],
    [['tags', 'update', '7', '--name', 'New'], 'PUT /tag/7 {"name":"New"}\n'],
    [['tags', 'apply', '7', 'm1', 'm2'], 'PUT /tag {"tagId":7,"meetingIds":["m1","m2"]}\n'],
    [
      ['meetings', 'share', 'm1', '--team', '3', '--access', 'editor'],
      'PUT /meeting/m1/share [{"teamId":3,"access":"Editor"}]\n',
    ],
    [
      ['calendar', 'set-notes', 'ev:1', '--notes', 'hi', '--clear-tags'],
      'PUT /calendar/events/ev%3A1/meeting {"privateNotes":"hi","tagIds":[]}\n',
    ],
    [['api', '/tag/7', '-X', 'PUT', '-F', 'name=x'], 'PUT /tag/7 {"name":"x"}\n'],
    [['api', '/action-items?x=1', '-X', 'DELETE'], 'DELETE /action-items?x=1\n'],
  ])('%j prints the request, sends nothing, needs no key', async (args, expected) => {
    const r = await runRecorded(sandbox, [...args, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(expected);
    expect(r.requests).toHaveLength(0);
    const withoutKey = await bare([...args, '--dry-run']);
    expect(withoutKey.code, withoutKey.stderr).toBe(0);
    expect(withoutKey.stdout).toBe(expected);
  });

  it('still validates the input fully (exit 2)', async () => {
    const r = await bare(['action-items', 'update', '4', '--status', 'maybe', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('bulk: every request of every batch; --json prints them as an array', async () => {
    const emails = Array.from({ length: 120 }, (_, i) => `p${i}@example.com`).join('\n');
    const r = await runRecorded(sandbox, ['meetings', 'share', 'm1', '--stdin', '--dry-run', '--json'], {
      input: emails,
    });
    expect(r.code).toBe(0);
    expect(r.requests).toHaveLength(0);
    const planned = JSON.parse(r.stdout) as { method: string; path: string; body: { email: string }[] }[];
    expect(planned.map((p) => [p.method, p.path, p.body.length])).toEqual([
      ['PUT', '/meeting/m1/share', 50],
      ['PUT', '/meeting/m1/share', 50],
      ['PUT', '/meeting/m1/share', 20],
    ]);
    expect(planned[2]!.body[19]).toEqual({ email: 'p119@example.com', access: 'Viewer' });
  });

  it('prints exactly what the real run sends', async () => {
    const ids = (await fetchAll(sandbox, '/action-items?assigneeType=Anyone&status=ALL')).slice(0, 3) as {
      id: number;
    }[];
    const args = [
      'action-items',
      'update',
      ...ids.map((i) => String(i.id)),
      '--title',
      'Renamed',
      '--assignee',
      'none',
    ];
    const dry = await runRecorded(sandbox, [...args, '--dry-run', '--json']);
    expect(dry.requests).toHaveLength(0);
    const real = await runRecorded(sandbox, args);
    expect(real.code, real.stderr).toBe(0);
    const sent = real.requests.map((q) => ({ method: q.method, path: q.path, body: q.body }));
    const sortByPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect(sent.sort(sortByPath)).toEqual((JSON.parse(dry.stdout) as typeof sent).sort(sortByPath));
  });
});
