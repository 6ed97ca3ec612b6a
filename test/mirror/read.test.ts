// Offline reads, mtg find and mtg sql against a mirror synced from the sandbox over real HTTP:
// offline output is byte-identical to online output right after a sync (every read command and
// format; the documented differences asserted on their own), and offline runs send nothing. A read
// while a sync process runs: test/e2e/read-during-sync.test.ts.
import { stripVTControlCharacters } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/mirror/driver.js';
import { visibleWidth } from '../../src/output/text.js';
import { type InProcessResult, runInProcess } from '../helpers/inprocess.js';
import { type MirrorEnv, mirrorEnvs, sql } from './helpers.js';

const FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;

let m: MirrorEnv;
/** mirrorEnv(), each stopped after this file's tests. */
const env = mirrorEnvs();

/** Runs offline and checks that the sandbox saw no request meanwhile. */
async function offline(e: MirrorEnv, args: string[]): Promise<InProcessResult> {
  const before = e.sandbox.requests.length;
  const r = await e.mtg([...args, '--offline']);
  expect(e.sandbox.requests.length, `requests during offline ${args.join(' ')}`).toBe(before);
  return r;
}

/** A few at a time: the machine is shared. */
async function inBatches<T>(jobs: (() => Promise<T>)[], size = 4): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < jobs.length; i += size)
    out.push(...(await Promise.all(jobs.slice(i, i + size).map((j) => j()))));
  return out;
}

let ids: {
  meeting: string;
  tag: string;
  attendee: string;
  assignee: string;
  domain: string;
  middle: string;
};

beforeAll(async () => {
  m = await env({ seed: 21, pageSize: 4 });
  const synced = await m.sync();
  expect(synced.code).toBe(0);
  const first = <T>(q: string) => sql<T>(m.dbPath, q)[0]!;
  ids = {
    meeting: first<{ id: string }>('SELECT id FROM meetings ORDER BY position LIMIT 1').id,
    tag: String(
      first<{ t: number }>(
        "SELECT json_extract(t.value, '$.id') AS t FROM meetings, json_each(meetings.json, '$.tags') AS t LIMIT 1",
      ).t,
    ),
    attendee: String(
      first<{ p: number }>(
        "SELECT json_extract(a.value, '$.profileId') AS p FROM meetings, json_each(meetings.json, '$.attendees') AS a ORDER BY meetings.position DESC LIMIT 1",
      ).p,
    ),
    assignee: String(
      first<{ p: number }>(
        "SELECT json ->> '$.assignee.profileId' AS p FROM action_items WHERE mine = 0 AND json ->> '$.assignee' IS NOT NULL LIMIT 1",
      ).p,
    ),
    domain: first<{ domain: string }>('SELECT domain FROM companies ORDER BY position LIMIT 1').domain,
    middle: first<{ c: string }>(
      'SELECT created_at AS c FROM meetings ORDER BY position LIMIT 1 OFFSET (SELECT count(*) / 2 FROM meetings)',
    ).c,
  };
}, 120_000);

describe('--offline', () => {
  it('prints what the same command printed online, for every read command and format, sending nothing', async () => {
    const commands: string[][] = [
      ['meetings', 'list'],
      ['meetings', 'list', '--limit', '7'],
      ['meetings', 'list', '--tag', ids.tag],
      ['meetings', 'list', '--since', ids.middle, '--limit', '3'],
      ['meetings', 'search', '--until', ids.middle],
      ['meetings', 'search'],
      ['meetings', 'search', '--attendee', ids.attendee, '--tag', ids.tag],
      ['meetings', 'search', '--meeting', ids.meeting],
      ['meetings', 'view', ids.meeting],
      ['action-items', 'list'],
      ['action-items', 'list', '--assignee', 'anyone', '--status', 'all'],
      ['action-items', 'list', '--assignee', 'not-me', '--status', 'done'],
      ['action-items', 'list', '--assignee', 'unassigned', '--status', 'all'],
      ['action-items', 'list', '--assignee', ids.assignee, '--status', 'all'],
      ['action-items', 'list', '--assignee', 'anyone', '--tag', ids.tag, '--attendee', ids.attendee],
      ['people', 'list'],
      ['people', 'list', '--domain', ids.domain],
      ['people', 'list', '--tag', ids.tag],
      ['companies', 'list'],
      ['companies', 'list', '--tag', ids.tag],
      ['companies', 'view', ids.domain],
    ];
    const runs = commands.flatMap((command) => FORMATS.map((format) => [...command, '--format', format]));
    // Every online run first, then every offline run: the request count must not move meanwhile.
    const online = await inBatches(runs.map((args) => () => m.mtg(args)));
    const before = m.sandbox.requests.length;
    const offlineRuns = await inBatches(runs.map((args) => () => m.mtg([...args, '--offline'])));
    expect(m.sandbox.requests.length, 'requests during the offline runs').toBe(before);
    const results = runs.map((args, i) => ({
      args: args.join(' '),
      online: online[i]!,
      off: offlineRuns[i]!,
    }));
    let nonEmpty = 0;
    for (const { args, online, off } of results) {
      expect(online.code, `${args}: ${online.stderr}`).toBe(0);
      expect(off.code, `${args} --offline: ${off.stderr}`).toBe(0);
      expect(off.stdout, args).toBe(online.stdout);
      if (online.stdout.trim() !== '' && online.stdout.trim() !== '[]') nonEmpty++;
    }
    // The filters picked real data: most outputs hold something.
    expect(nonEmpty).toBeGreaterThan(results.length * 0.8);
  }, 600_000);

  it('meetings transcript: the same in each of its formats; MTG_OFFLINE=1 works like --offline', async () => {
    for (const format of ['text', 'json', 'ndjson', 'srt', 'vtt', 'md']) {
      const args = ['meetings', 'transcript', ids.meeting, '--format', format];
      const online = await m.mtg(args);
      expect(online.code).toBe(0);
      expect(online.stdout.length).toBeGreaterThan(20);
      expect((await offline(m, args)).stdout).toBe(online.stdout);
    }
    const before = m.sandbox.requests.length;
    const viaEnv = await m.mtg(['meetings', 'list', '--json'], { MTG_OFFLINE: '1' });
    expect(viaEnv.code).toBe(0);
    expect(m.sandbox.requests.length).toBe(before);
    expect(viaEnv.stdout).toBe((await m.mtg(['meetings', 'list', '--json'])).stdout);
  }, 120_000);

  it('companies view: the detail GET /company sent (externalLinks included); a detail not synced yet: the summary and its people, and one line saying so', async () => {
    const online = await m.mtg(['companies', 'view', ids.domain, '--json']);
    const off = await offline(m, ['companies', 'view', ids.domain, '--json']);
    expect(off.code).toBe(0);
    expect(off.stderr).toBe('');
    const a = JSON.parse(online.stdout);
    expect(a.externalLinks.length).toBeGreaterThan(0);
    expect(JSON.parse(off.stdout)).toEqual(a);

    // A mirror an older mtg synced (no detail stored): the form the lists allow, and a note.
    const old = await env({ seed: 21, pageSize: 4 });
    expect((await old.sync()).code).toBe(0);
    const db = openDb(old.dbPath);
    try {
      db.prepare('UPDATE companies SET detail_json = NULL, detail_for = NULL').run();
    } finally {
      db.close();
    }
    const fallback = await offline(old, ['companies', 'view', ids.domain, '--json']);
    expect(fallback.code).toBe(0);
    expect(fallback.stderr).toMatch(/arrives with the next `mtg sync`/);
    expect(fallback.stderr.trim().split('\n')).toHaveLength(1);
    const b = JSON.parse(fallback.stdout);
    const { externalLinks: _links, ...rest } = a;
    expect(b).toEqual(rest);
    expect(b.people.length).toBeGreaterThan(0);
    // The next sync fetches the details it lacks, and only those.
    const before = old.sandbox.requests.length;
    const again = await old.sync();
    expect(again.code, again.stderr).toBe(0);
    const detailPaths = old.sandbox.requests.slice(before).filter((r) => /\/company\//.test(r.path));
    expect(detailPaths.length).toBe(
      sql(old.dbPath, 'SELECT domain FROM companies WHERE deleted_at IS NULL').length,
    );
    const synced = await offline(old, ['companies', 'view', ids.domain, '--json']);
    expect(synced.stderr).toBe('');
    expect(JSON.parse(synced.stdout)).toEqual(a);
  }, 120_000);

  it('meetings search TERM ranks by relevance: the same meetings as online, best match first', async () => {
    const term = 'budget';
    const online = JSON.parse((await m.mtg(['meetings', 'search', term, '--json'])).stdout) as {
      id: string;
    }[];
    const off = await offline(m, ['meetings', 'search', term, '--json']);
    expect(off.code, off.stderr).toBe(0);
    const found = JSON.parse(off.stdout) as { id: string; name: string | null }[];
    expect(online.length).toBeGreaterThan(0);
    // The API's search matches name, notes and transcript; offline also action items and attendees.
    expect(found.map((x) => x.id)).toEqual(expect.arrayContaining(online.map((x) => x.id)));
    const best = JSON.parse((await offline(m, ['find', term, '--json', '--limit', '1'])).stdout);
    expect(found[0]!.id).toBe(best[0].meetingId);
  }, 60_000);

  it('refuses what the mirror cannot answer, write commands and a missing mirror: exit 2, one line, nothing sent', async () => {
    const cases: [string[], RegExp][] = [
      [['action-items', 'list', '--assignee', 'my-workspace'], /my-workspace needs the API/],
      [['action-items', 'list', '--assignee', 'outside-my-workspace'], /needs the API/],
      [['action-items', 'list', '--assignee-team', '3'], /--assignee-team needs the API/],
      [['action-items', 'update', '1', '--status', 'DONE'], /action-items update.*--offline/],
      [['tags', 'create', 'x'], /--offline/],
      [['sync'], /--offline/],
      [['meetings', 'list', '--checkpoint', 'x.json', '-o', 'out.json'], /checkpoint/],
    ];
    for (const [args, message] of cases) {
      const r = await offline(m, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
    const none = await offline(m, ['meetings', 'list', '--profile', 'other']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('mtg: No mirror for profile other: run `mtg sync`\n');
  }, 120_000);
});

type Hit = {
  meetingId: string;
  meetingName: string | null;
  createdAt: string;
  in: string;
  speaker: string | null;
  timestamp: number | null;
  snippet: string;
  rank: number;
  matched: string[];
};

async function find(args: string[]): Promise<Hit[]> {
  const r = await offline(m, ['find', ...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Hit[];
}
const plain = (h: Hit) => h.snippet.replaceAll('**', '').toLowerCase();

describe('mtg find', () => {
  it('finds a transcript entry with its meeting, speaker and timestamp', async () => {
    const entry = sql<{ id: string; speaker: string; timestamp: number; text: string }>(
      m.dbPath,
      "SELECT t.meeting_id AS id, e.value ->> '$.speaker' AS speaker, e.value ->> '$.timestamp' AS timestamp," +
        " e.value ->> '$.text' AS text FROM transcripts t, json_each(t.json) e ORDER BY t.meeting_id, e.key LIMIT 1",
    )[0]!;
    const hits = await find([`"${entry.text.replace(/"/g, '')}"`, '--in', 'transcript']);
    const hit = hits.find((h) => h.meetingId === entry.id && h.timestamp === entry.timestamp);
    expect(hit).toBeDefined();
    expect(hit!.in).toBe('transcript');
    expect(hit!.speaker).toBe(entry.speaker);
    expect(Object.keys(hit!)).toEqual([
      'meetingId',
      'meetingName',
      'createdAt',
      'in',
      'speaker',
      'timestamp',
      'snippet',
      'rank',
      'matched',
    ]);
    expect(hits.map((h) => h.rank)).toEqual(hits.map((_, i) => i + 1));
    // A table shows the timestamp as mm:ss and the match highlighted (at 100 columns: a pipe's
    // table is 80 unless COLUMNS says, and the line's "where" gives way to the name first).
    const before = m.sandbox.requests.length;
    const table = await m.mtg(
      ['find', `"${entry.text.replace(/"/g, '')}"`, '--in', 'transcript', '--format', 'table', '--offline'],
      { COLUMNS: '100' },
    );
    expect(m.sandbox.requests.length).toBe(before);
    const clock = `${String(Math.floor(entry.timestamp / 60)).padStart(2, '0')}:${String(Math.floor(entry.timestamp % 60)).padStart(2, '0')}`;
    expect(table.stdout).toContain(clock);
    expect(table.stdout).toContain('**');
    const colored = await offline(m, ['find', 'budget', '--format', 'table', '--limit', '1'].concat([]));
    expect(colored.stdout).not.toContain('\u001b');
  }, 60_000);

  it('the terminal page fits 60 to 200 columns: text is cut, the meeting ID never', async () => {
    const all = await find(['budget']);
    expect(all.length).toBeGreaterThan(2);
    for (const [columns, color] of [
      [60, '1'],
      [60, '0'],
      [80, '1'],
      [200, '1'],
    ] as const) {
      const r = await runInProcess(['find', 'budget', '--offline'], {
        env: { ...m.env, FORCE_COLOR: color, ...(color === '0' ? { NO_COLOR: '1' } : {}) },
        tty: true,
        columns,
      });
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(all.length * 2);
      lines.forEach((line, i) => {
        expect(visibleWidth(line), line).toBeLessThanOrEqual(columns);
        // Each hit's first line ends with its whole meeting ID.
        if (i % 2 === 0)
          expect(stripVTControlCharacters(line).endsWith(`  ${all[i / 2]!.meetingId}`), line).toBe(true);
      });
      if (columns === 60) expect(lines.some((l) => l.includes('…'))).toBe(true);
    }
  }, 60_000);

  it('a passage need not hold every word, but those holding all come first; phrases, prefix*, OR and -word behave', async () => {
    const budget = await find(['budget']);
    expect(budget.length).toBeGreaterThan(0);
    for (const h of budget) expect(h.matched.some((w) => w.startsWith('budget'))).toBe(true);
    const approved = await find(['approved']);
    const both = await find(['budget', 'approved']);
    // OR: every passage with either word, the ones with both first.
    expect(both.length).toBeGreaterThan(Math.max(budget.length, approved.length) - 1);
    const holdsBoth = both.map((h) => /budget/.test(plain(h)) && /approv/.test(plain(h)));
    expect(holdsBoth[0]).toBe(true);
    const firstWithout = holdsBoth.indexOf(false);
    if (firstWithout >= 0) expect(holdsBoth.slice(firstWithout).some(Boolean)).toBe(false);

    const phrase = await find(['"budget is approved"']);
    expect(phrase.length).toBeGreaterThan(0);
    for (const h of phrase) expect(plain(h)).toContain('budget is approved');
    expect(await find(['"approved is budget"'])).toEqual([]);

    const prefix = await find(['approv*']);
    const words = new Set(prefix.flatMap((h) => (plain(h).match(/approv\w*/g) ?? []) as string[]));
    expect(words.has('approved')).toBe(true);
    expect(words.has('approval')).toBe(true);

    const either = await find(['budget', 'OR', 'sso']);
    for (const h of either) expect(plain(h)).toMatch(/budget|sso/);

    const withoutPilot = await find(['budget -pilot']);
    expect(withoutPilot.length).toBeGreaterThan(0);
    expect(withoutPilot.length).toBeLessThan(budget.length);
    for (const h of withoutPilot) expect(plain(h)).not.toContain('pilot');
  }, 120_000);

  it('--in, --since/--until and --limit narrow the hits', async () => {
    const names = await find(['budget', '--in', 'action-items,name']);
    expect(names.every((h) => h.in === 'action-items' || h.in === 'name')).toBe(true);
    const all = await find(['budget']);
    const dates = [...new Set(all.map((h) => h.createdAt))].sort();
    const mid = dates[Math.floor(dates.length / 2)]!;
    const since = await find(['budget', '--since', mid]);
    const until = await find(['budget', '--until', mid]);
    expect(since.every((h) => h.createdAt >= mid)).toBe(true);
    expect(until.every((h) => h.createdAt < mid)).toBe(true);
    expect(since.length + until.length).toBe(all.length);
    expect(await find(['budget', '--limit', '2'])).toEqual(all.slice(0, 2));
  }, 60_000);

  it('a malformed query is exit 2 with a clear message, never an SQL error', async () => {
    for (const q of [
      ['"unbalanced'],
      ['--', '-pilot'],
      [''],
      ['OR', 'budget'],
      ['budget', 'OR'],
      ['***'],
      ['budget', 'OR', '-pilot'],
    ]) {
      const r = await offline(m, ['find', ...q]);
      expect(r.code, q.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/sqlite|fts5|syntax/i);
    }
    // FTS5 syntax typed by the user is just text: no column filter, NEAR or parentheses.
    for (const q of ['text:budget', 'NEAR(budget pilot)', '(budget', 'budget^', 'AND']) {
      const r = await offline(m, ['find', q, '--json']);
      expect(r.code, `${q}: ${r.stderr}`).toBe(0);
    }
  }, 60_000);
});

describe('mtg sql', () => {
  it('reads rows in every format; columns as the query names them', async () => {
    const query =
      "SELECT id, json ->> '$.name' AS name FROM meetings WHERE deleted_at IS NULL ORDER BY position LIMIT 3";
    const rows = sql<{ id: string; name: string | null }>(m.dbPath, query);
    const json = await offline(m, ['sql', query, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(rows);
    const csv = await offline(m, ['sql', query, '--format', 'csv']);
    expect(csv.stdout.split('\n')[0]).toBe('id,name');
    expect(csv.stdout.trim().split('\n')).toHaveLength(4);
    const table = await offline(m, [
      'sql',
      'SELECT count(*) AS n, value AS kind FROM meetings, json_each(\'["name","transcript"]\') GROUP BY value',
      '--format',
      'table',
    ]);
    expect(table.stdout).toMatch(/^n\s+kind\n/);
    expect(table.stdout).toContain('transcript');
    const tsv = await offline(m, ['sql', "SELECT json ->> '$.email' FROM people LIMIT 1", '--format', 'tsv']);
    expect(tsv.stdout.split('\n')[0]).toBe("json ->> '$.email'");
    expect(tsv.stdout.split('\n')[1]).toMatch(/@/);
  }, 60_000);

  it('refuses statements that write (exit 2, the database unchanged) and reports syntax errors on one line', async () => {
    const count = () => sql<{ n: number }>(m.dbPath, 'SELECT count(*) AS n FROM meetings')[0]!.n;
    const before = count();
    for (const statement of [
      'DELETE FROM meetings',
      "UPDATE meetings SET name = 'x'",
      'DROP TABLE meetings',
      'CREATE TABLE x (a)',
      "INSERT INTO meta VALUES ('k', 'v')",
      'PRAGMA user_version = 99',
    ]) {
      const r = await offline(m, ['sql', statement]);
      expect(r.code, statement).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(count()).toBe(before);
    expect(sql<{ user_version: number }>(m.dbPath, 'PRAGMA user_version')[0]!.user_version).not.toBe(99);
    const bad = await offline(m, ['sql', 'SELEC * FROM meetings']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('mtg: SQL error: near "SELEC": syntax error\n');
  }, 60_000);

  it('integers beyond 2^53 keep every digit in every format; safe ones print as plain numbers', async () => {
    const query =
      "SELECT json_extract('{\"a\":90071992547409931}', '$.a') AS a, 9007199254740993 AS big," +
      ' -9007199254740993 AS neg, 5 AS small, 1.5 AS real';
    const json = await offline(m, ['sql', query, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toBe(
      '[\n{"a":90071992547409931,"big":9007199254740993,"neg":-9007199254740993,"small":5,"real":1.5}\n]\n',
    );
    const ndjson = await offline(m, ['sql', query, '--format', 'ndjson']);
    expect(ndjson.stdout).toBe(
      '{"a":90071992547409931,"big":9007199254740993,"neg":-9007199254740993,"small":5,"real":1.5}\n',
    );
    const digits = '90071992547409931,9007199254740993,-9007199254740993,5,1.5';
    expect((await offline(m, ['sql', query, '--format', 'csv'])).stdout.split('\n')[1]).toBe(digits);
    expect((await offline(m, ['sql', query, '--format', 'tsv'])).stdout.split('\n')[1]).toBe(
      digits.replace(/,/g, '\t'),
    );
    const table = await offline(m, ['sql', query, '--format', 'table']);
    expect(table.stdout.split('\n')[1]!.trim().split(/\s+/)).toEqual(digits.split(','));
  }, 60_000);

  it('a BLOB cell is {"$base64": true, "encoded": …} in every format, the same with either SQLite driver (a Buffer and a Uint8Array printed differently)', async () => {
    const query = "SELECT x'00ff10' AS b, zeroblob(0) AS empty, 1 AS n";
    const json = await offline(m, ['sql', query, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      { b: { $base64: true, encoded: 'AP8Q' }, empty: { $base64: true, encoded: '' }, n: 1 },
    ]);
    const csv = await offline(m, ['sql', query, '--format', 'csv']);
    expect(csv.stdout.split('\n')[1]).toBe(
      '"{""$base64"":true,""encoded"":""AP8Q""}","{""$base64"":true,""encoded"":""""}",1',
    );
    // The FTS index's own pages are BLOBs: a user reading them sees base64, not byte lists.
    const pages = await offline(m, ['sql', 'SELECT block FROM passages_data LIMIT 1', '--json']);
    expect(pages.code, pages.stderr).toBe(0);
    expect(JSON.parse(pages.stdout)[0].block).toMatchObject({ $base64: true, encoded: expect.any(String) });
  }, 60_000);

  it("--fields takes only the statement's columns: an unknown one is exit 2 naming them, before any row", async () => {
    const query = 'SELECT id, name FROM meetings LIMIT 2';
    const bad = await offline(m, ['sql', query, '--fields', 'id,nmae', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(
      'mtg: unknown field for this query (its columns): nmae; valid fields: id, name\n',
    );
    const good = await offline(m, ['sql', query, '--fields', 'name', '--json']);
    expect(good.code, good.stderr).toBe(0);
    expect(Object.keys(JSON.parse(good.stdout)[0])).toEqual(['name']);
  }, 60_000);

  it('--schema prints the CREATE statements', async () => {
    const r = await offline(m, ['sql', '--schema']);
    expect(r.code).toBe(0);
    for (const table of [
      'meta',
      'meetings',
      'transcripts',
      'action_items',
      'people',
      'companies',
      'changes',
    ]) {
      expect(r.stdout).toContain(`CREATE TABLE ${table} (`);
    }
    expect(r.stdout).toContain('CREATE VIRTUAL TABLE passages USING fts5(');
    expect(r.stdout).not.toContain('passages_data');
  }, 30_000);
});
