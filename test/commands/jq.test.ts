// --jq in-process against the sandbox: the same output as the real jq, the whole document as one
// input, errors before and after a write, counts in the singular, -o. (jq-web's export is a
// promise: vitest.config.ts's in-process project takes CommonJS exports as they are, as node does.)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { Meeting } from '../../src/api/schemas.js';
import { sandboxTest } from '../helpers/fixtures.js';
import { fetchAll } from '../helpers/recorded.js';
import { tempDir } from '../helpers/temp.js';

const PAGE_SIZE = 10;
// About a year of meetings (they are 2 to 40 hours apart), in pages of 10; `meetings`: every
// meeting, newest first, as GET /meetings pages them (read once for the file).
const test = sandboxTest({
  pageSize: PAGE_SIZE,
  limits: 'none',
  sizes: { meetings: 420, actionItems: 200 },
}).extend(
  'meetings',
  { scope: 'file' },
  async ({ sandbox }) => (await fetchAll(sandbox, '/meetings')) as Meeting[],
);

const gets = (requests: { method: string; path: string }[], path: string) =>
  requests.filter((r) => r.method === 'GET' && r.path === path);

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

  test.for(expressions)(
    '%s: the same output as the real jq on the --json document',
    async (expr, { mtg }) => {
      if (!hasJq) {
        console.warn('skipping the comparison with the real jq: no `jq` on PATH (apt-get install -y jq)');
      }
      const json = await mtg([...items, '--json']);
      expect(json.code).toBe(0);
      const r = await mtg([...items, '--jq', expr]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toBe('');
      if (hasJq) expect(r.stdout).toBe(realJq(expr, json.stdout));
    },
  );

  test('runs over the whole document (every page as one array), strings printed raw', async ({
    sandbox,
    meetings,
    mtg,
  }) => {
    const all = await fetchAll(sandbox, '/meetings');
    const r = await mtg(['meetings', 'list', '--jq', 'length, .[0].id']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${all.length}\n${meetings[0]!.id}\n`);
    expect(gets(r.requests, '/meetings').length).toBe(Math.ceil(all.length / PAGE_SIZE));
  });

  test('--limit still stops the fetching early', async ({ meetings, mtg }) => {
    const r = await mtg(['meetings', 'list', '--limit', '3', '--jq', 'map(.id)']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(meetings.slice(0, 3).map((m) => m.id));
    expect(gets(r.requests, '/meetings')).toHaveLength(1);
  });

  test('a syntax error is exit 2 before any request', async ({ mtg }) => {
    const r = await mtg(['meetings', 'list', '--jq', '.[] | select(.id ==']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mtg: --jq: syntax error/);
    expect(r.stdout).toBe('');
    expect(r.requests).toHaveLength(0);
  });

  test("a runtime error is exit 1 with jq's message", async ({ mtg }) => {
    const r = await mtg(['meetings', 'list', '--limit', '2', '--jq', '.[] | .name + 1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/jq: .*cannot be added/);
    expect(r.stdout).toBe('');
  });

  test('a runtime error after a write says the write was applied and a rerun would repeat it', async ({
    mtg,
  }) => {
    const r = await mtg(['action-items', 'create', 'jq-applied', '--jq', '.title + 1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^mtg: the request was applied; --jq failed on its response: .*cannot be added; running the command again would repeat the write\n$/,
    );
    expect(r.requests.filter((q) => q.method === 'POST' && q.path === '/action-items')).toHaveLength(1);
    expect(r.stdout).toBe('');
    const api = await mtg(['api', '-X', 'POST', '/tag', '-f', 'name=jq-applied', '--jq', '.id + "x"']);
    expect(api.code, api.stderr).toBe(1);
    expect(api.stderr).toMatch(
      /^mtg: the request was applied; --jq failed on its response: .*would repeat the write/,
    );
    // A read that fails in jq is just a jq error.
    const read = await mtg(['meetings', 'list', '--limit', '1', '--jq', '.[0].id + 1']);
    expect(read.stderr).toMatch(/^mtg: jq: .*cannot be added$/m);
  });

  test('a runtime error after the whole list was fetched is one jq line: nothing stopped, nothing failed to write', async ({
    mtg,
  }) => {
    const r = await mtg(['meetings', 'list', '--limit', '1', '--jq', '.[0].id + 1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^mtg: jq: .*cannot be added\n$/);
    const all = await mtg(['action-items', 'list', '--jq', '.[] | .id.x']);
    expect(all.code).toBe(1);
    expect(all.stderr).toBe('mtg: jq: Cannot index number with string "x"\n');
    expect(all.stdout).toBe('');
  });

  // jq's stderr is taken from jq-web itself, not by swapping console.warn for the run (#21: nothing
  // reassigns a method at run time): another part of a long-running process that warns meanwhile is
  // not swallowed into jq's stderr.
  test('a run with jq debug output leaves console.warn in place', async ({ mtg }) => {
    const original = Object.getOwnPropertyDescriptor(console, 'warn');
    const assigned: unknown[] = [];
    Object.defineProperty(console, 'warn', {
      configurable: true,
      get: () => original?.value,
      set: (fn: unknown) => assigned.push(fn),
    });
    try {
      const r = await mtg(['action-items', 'list', '--limit', '1', '--jq', '.[0].id | debug']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^\["DEBUG:",\d+\]\n/);
    } finally {
      if (original) Object.defineProperty(console, 'warn', original);
    }
    expect(assigned).toEqual([]);
  });

  test('debug output goes to stderr as jq prints it; `input` past the document says so', async ({ mtg }) => {
    const r = await mtg(['action-items', 'list', '--limit', '2', '--jq', '.[] | .id | debug']);
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout.trim().split('\n');
    expect(ids).toHaveLength(2);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual(ids.map((id) => `["DEBUG:",${id}]`));
    expect(r.stderr).not.toContain('stderr:');
    // Debug lines printed before a runtime error are kept too, before the error.
    const failing = await mtg(['action-items', 'list', '--limit', '1', '--jq', '.[0].id | debug | .x']);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/^\["DEBUG:",\d+\]\nmtg: jq: Cannot index number with string "x"\n$/);
    const input = await mtg(['action-items', 'list', '--limit', '1', '--jq', 'input']);
    expect(input.code).toBe(1);
    expect(input.stderr).toBe(
      'mtg: jq: no more inputs (--jq reads one input: the whole document the command prints)\n',
    );
  });

  test('counts meet their nouns in the singular: "1 meeting", "1 request"', async ({ mtg }) => {
    const one = await mtg(['meetings', 'list', '--limit', '1', '--format', 'table']);
    expect(one.stderr).toMatch(/Showing the first 1 meeting;/);
    const dry = await mtg(['tags', 'create', 'x', '--dry-run']);
    expect(dry.stderr).toMatch(/Dry run: 1 request not sent\./);
  });

  test('implies json; another --format is exit 2, nothing sent', async ({ mtg }) => {
    const r = await mtg(['meetings', 'list', '--format', 'csv', '--jq', '.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jq conflicts with --format csv/);
    expect(r.requests).toHaveLength(0);
  });

  test('works for single objects and for mtg api, and -o gets the filtered text', async ({
    sandbox,
    mtg,
  }) => {
    const tag = await mtg(['tags', 'create', 'jq-tag', '--jq', '.name']);
    expect(tag.code, tag.stderr).toBe(0);
    expect(tag.stdout).toBe('jq-tag\n');
    const file = join(tempDir('mtg-jq-'), 'count.txt');
    const api = await mtg(['api', '/people', '--paginate', '--jq', 'length', '-o', file]);
    expect(api.code).toBe(0);
    expect(api.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(`${(await fetchAll(sandbox, '/people')).length}\n`);
  });

  // meetings view --web refusing the other output options: test/commands/meetings/view.test.ts.
  test('meetings view --web refuses --jq (one line, nothing sent)', async ({ meetings, mtg }) => {
    const res = await mtg(['meetings', 'view', meetings[0]!.id, '--web', '--jq', '.id'], {
      env: { MTG_APP_URL: 'https://app.example.com' },
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'mtg: --web prints the link only: it takes no --json, --format, --fields or --jq\n',
    );
    expect(res.stdout).toBe('');
    expect(res.requests).toHaveLength(0);
  });
});
