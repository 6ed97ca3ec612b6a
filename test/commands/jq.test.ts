// --jq in-process against the sandbox: the same output as the real jq, the whole document as one
// input, errors before and after a write, counts in the singular, -o. (jq-web's export is a
// promise: vitest.config.ts's in-process project takes CommonJS exports as they are, as node does.)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Meeting } from '../../src/api/schemas.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { fetchAll, runRecordedInProcess } from '../helpers/recorded.js';
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

  it.each(expressions)('%s: the same output as the real jq on the --json document', async (expr) => {
    if (!hasJq) {
      console.warn('skipping the comparison with the real jq: no `jq` on PATH (apt-get install -y jq)');
    }
    const json = await runRecordedInProcess(sandbox, [...items, '--json']);
    expect(json.code).toBe(0);
    const r = await runRecordedInProcess(sandbox, [...items, '--jq', expr]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toBe('');
    if (hasJq) expect(r.stdout).toBe(realJq(expr, json.stdout));
  });

  it('runs over the whole document (every page as one array), strings printed raw', async () => {
    const all = await fetchAll(sandbox, '/meetings');
    const r = await runRecordedInProcess(sandbox, ['meetings', 'list', '--jq', 'length, .[0].id']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${all.length}\n${meetings[0]!.id}\n`);
    expect(gets(r.requests, '/meetings').length).toBe(Math.ceil(all.length / PAGE_SIZE));
  });

  it('--limit still stops the fetching early', async () => {
    const r = await runRecordedInProcess(sandbox, ['meetings', 'list', '--limit', '3', '--jq', 'map(.id)']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(meetings.slice(0, 3).map((m) => m.id));
    expect(gets(r.requests, '/meetings')).toHaveLength(1);
  });

  it('a syntax error is exit 2 before any request', async () => {
    const r = await runRecordedInProcess(sandbox, ['meetings', 'list', '--jq', '.[] | select(.id ==']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mtg: --jq: syntax error/);
    expect(r.stdout).toBe('');
    expect(r.requests).toHaveLength(0);
  });

  it("a runtime error is exit 1 with jq's message", async () => {
    const r = await runRecordedInProcess(sandbox, [
      'meetings',
      'list',
      '--limit',
      '2',
      '--jq',
      '.[] | .name + 1',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/jq: .*cannot be added/);
    expect(r.stdout).toBe('');
  });

  it('a runtime error after a write says the write was applied and a rerun would repeat it', async () => {
    const r = await runRecordedInProcess(sandbox, [
      'action-items',
      'create',
      'jq-applied',
      '--jq',
      '.title + 1',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^mtg: the request was applied; --jq failed on its response: .*cannot be added; running the command again would repeat the write\n$/,
    );
    expect(r.requests.filter((q) => q.method === 'POST' && q.path === '/action-items')).toHaveLength(1);
    expect(r.stdout).toBe('');
    const api = await runRecordedInProcess(sandbox, [
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
    const read = await runRecordedInProcess(sandbox, [
      'meetings',
      'list',
      '--limit',
      '1',
      '--jq',
      '.[0].id + 1',
    ]);
    expect(read.stderr).toMatch(/^mtg: jq: .*cannot be added$/m);
  });

  it('a runtime error after the whole list was fetched is one jq line: nothing stopped, nothing failed to write', async () => {
    const r = await runRecordedInProcess(sandbox, [
      'meetings',
      'list',
      '--limit',
      '1',
      '--jq',
      '.[0].id + 1',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^mtg: jq: .*cannot be added\n$/);
    const all = await runRecordedInProcess(sandbox, ['action-items', 'list', '--jq', '.[] | .id.x']);
    expect(all.code).toBe(1);
    expect(all.stderr).toBe('mtg: jq: Cannot index number with string "x"\n');
    expect(all.stdout).toBe('');
  });

  // jq's stderr is taken from jq-web itself, not by swapping console.warn for the run (#21: nothing
  // reassigns a method at run time): another part of a long-running process that warns meanwhile is
  // not swallowed into jq's stderr.
  it('a run with jq debug output leaves console.warn in place', async () => {
    const original = Object.getOwnPropertyDescriptor(console, 'warn');
    const assigned: unknown[] = [];
    Object.defineProperty(console, 'warn', {
      configurable: true,
      get: () => original?.value,
      set: (fn: unknown) => assigned.push(fn),
    });
    try {
      const r = await runRecordedInProcess(sandbox, [
        'action-items',
        'list',
        '--limit',
        '1',
        '--jq',
        '.[0].id | debug',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^\["DEBUG:",\d+\]\n/);
    } finally {
      if (original) Object.defineProperty(console, 'warn', original);
    }
    expect(assigned).toEqual([]);
  });

  it('debug output goes to stderr as jq prints it; `input` past the document says so', async () => {
    const r = await runRecordedInProcess(sandbox, [
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
    const failing = await runRecordedInProcess(sandbox, [
      'action-items',
      'list',
      '--limit',
      '1',
      '--jq',
      '.[0].id | debug | .x',
    ]);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/^\["DEBUG:",\d+\]\nmtg: jq: Cannot index number with string "x"\n$/);
    const input = await runRecordedInProcess(sandbox, [
      'action-items',
      'list',
      '--limit',
      '1',
      '--jq',
      'input',
    ]);
    expect(input.code).toBe(1);
    expect(input.stderr).toBe(
      'mtg: jq: no more inputs (--jq reads one input: the whole document the command prints)\n',
    );
  });

  it('counts meet their nouns in the singular: "1 meeting", "1 request"', async () => {
    const one = await runRecordedInProcess(sandbox, [
      'meetings',
      'list',
      '--limit',
      '1',
      '--format',
      'table',
    ]);
    expect(one.stderr).toMatch(/Showing the first 1 meeting;/);
    const dry = await runRecordedInProcess(sandbox, ['tags', 'create', 'x', '--dry-run']);
    expect(dry.stderr).toMatch(/Dry run: 1 request not sent\./);
  });

  it('implies json; another --format is exit 2, nothing sent', async () => {
    const r = await runRecordedInProcess(sandbox, ['meetings', 'list', '--format', 'csv', '--jq', '.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jq conflicts with --format csv/);
    expect(r.requests).toHaveLength(0);
  });

  it('works for single objects and for mtg api, and -o gets the filtered text', async () => {
    const tag = await runRecordedInProcess(sandbox, ['tags', 'create', 'jq-tag', '--jq', '.name']);
    expect(tag.code, tag.stderr).toBe(0);
    expect(tag.stdout).toBe('jq-tag\n');
    const file = join(tempDir('mtg-jq-'), 'count.txt');
    const api = await runRecordedInProcess(sandbox, [
      'api',
      '/people',
      '--paginate',
      '--jq',
      'length',
      '-o',
      file,
    ]);
    expect(api.code).toBe(0);
    expect(api.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(`${(await fetchAll(sandbox, '/people')).length}\n`);
  });

  // meetings view --web refusing the other output options: test/commands/meetings/view.test.ts.
  it('meetings view --web refuses --jq (one line, nothing sent)', async () => {
    const res = await runRecordedInProcess(
      sandbox,
      ['meetings', 'view', meetings[0]!.id, '--web', '--jq', '.id'],
      {
        env: { MTG_APP_URL: 'https://app.example.com' },
      },
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'mtg: --web prints the link only: it takes no --json, --format, --fields or --jq\n',
    );
    expect(res.stdout).toBe('');
    expect(res.requests).toHaveLength(0);
  });
});
