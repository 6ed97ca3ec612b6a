// Issue 29, item 1: a runaway statement is stopped. `mtg sql` has a time limit (--timeout, exit 1
// naming it) and an interrupt (Ctrl-C, SIGTERM) ends it at once (exit 130), even inside one step
// of SQLite that never returns (a recursive CTE without end); `PRAGMA name = value` is refused
// (exit 2) while reading a PRAGMA stays allowed. Real signals: test/e2e/sql-interrupt.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { testIO } from '../../../src/cli/io.js';
import { run } from '../../../src/cli/main.js';
import { openMirror } from '../../../src/mirror/open.js';
import { tempConfigDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';

/** Never ends: each step of count(*) is one sqlite3_step that never returns to JavaScript. */
const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c';

let env: Record<string, string>;
beforeAll(() => {
  const dir = tempDir('mtg-sql-');
  env = { MTG_DATA_DIR: dir, MTG_CONFIG_DIR: tempConfigDir() };
  const mirror = openMirror({ profile: 'default', dataDir: dir, baseUrl: 'https://api.example.com' });
  mirror.db
    .prepare(
      'INSERT INTO meetings(id, json, name, created_at, updated_at, position, seen_walk) VALUES (?, ?, ?, ?, ?, ?, 1)',
    )
    .run(
      'm1',
      '{"id":"m1","name":"Budget review"}',
      'Budget review',
      '2026-01-01T10:00:00Z',
      '2026-01-01T10:00:00Z',
      0,
    );
  mirror.close();
});

const sql = (...args: string[]) => runInProcess(['sql', ...args], { env });

describe('mtg sql: a time limit', () => {
  it('a statement past --timeout is stopped: exit 1, one line naming the limit, no row', async () => {
    const r = await sql(RUNAWAY, '--timeout', '1', '--json');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'mtg: the statement ran longer than its time limit of 1 s (--timeout) and was stopped\n',
    );
    expect(r.stdout).toBe('');
  }, 20_000);

  it('a statement that yields rows forever stops at the limit too (the rows printed so far stay well-formed)', async () => {
    const r = await sql(
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c',
      '--timeout',
      '0.5',
      '--format',
      'ndjson',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/time limit of 0\.5 s \(--timeout\)/);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines.slice(0, 100)) expect(JSON.parse(line)).toHaveProperty('x');
  }, 20_000);

  it('within the limit the statement runs as before: rows, --limit, and an SQLite error while stepping is exit 2 on one line', async () => {
    const ok = await sql('SELECT id, name FROM meetings', '--timeout', '5', '--json');
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual([{ id: 'm1', name: 'Budget review' }]);
    // --limit stops the reading of an endless statement (the child is ended, not waited for).
    const limited = await sql(
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c',
      '--limit',
      '3',
      '--format',
      'csv',
    );
    expect(limited.code, limited.stderr).toBe(0);
    expect(limited.stdout).toBe('x\n1\n2\n3\n');
    const bad = await sql("SELECT json_extract('{not json', '$.a') AS a");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^mtg: SQL error: .*malformed JSON\n$/);
  }, 20_000);

  it('a bad --timeout is exit 2 before anything runs', async () => {
    const r = await sql(RUNAWAY, '--timeout', 'soon');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('mtg: --timeout must be a number of seconds above 0, got "soon"\n');
  });
});

describe('mtg sql: an interrupt', () => {
  it('ends a statement stuck in one step at once: exit 130', async () => {
    const io = testIO({});
    const interrupt = new AbortController();
    // Long after the statement started (the child process is up and stepping).
    const timer = setTimeout(() => interrupt.abort('SIGINT'), 1_000);
    const code = await run(['sql', RUNAWAY], io, env, { interrupt: interrupt.signal });
    clearTimeout(timer);
    expect(code).toBe(130);
    expect(io.stderr()).toBe('Interrupted.\n');
    // Well-formed, as an empty result prints it: tsv's header (json: "[]").
    expect(io.stdout()).toBe('count(*)\n');
  }, 20_000);
});

describe('mtg sql: PRAGMA', () => {
  it('a PRAGMA that sets a value is exit 2 however it is written; nothing ran', async () => {
    for (const statement of [
      'PRAGMA mmap_size=2000000000',
      'PRAGMA mmap_size(2000000000)',
      'pragma main.cache_size = -100000',
      'PRAGMA "mmap_size" = 1',
      '/* a comment */ PRAGMA -- another\n mmap_size\n=\n1',
      'EXPLAIN PRAGMA cache_size = 1',
      'EXPLAIN QUERY PLAN PRAGMA mmap_size(1)',
    ]) {
      const r = await sql(statement);
      expect(r.code, statement).toBe(2);
      expect(r.stdout, statement).toBe('');
      expect(r.stderr, statement).toMatch(
        /^mtg: mtg sql only reads: PRAGMA \w+ with a value would change a setting/,
      );
      expect(r.stderr.split('\n')).toHaveLength(2);
    }
  });

  it('reading a PRAGMA stays allowed, with or without an argument naming what to read about', async () => {
    const info = await sql('PRAGMA table_info(meetings)', '--json');
    expect(info.code, info.stderr).toBe(0);
    expect(JSON.parse(info.stdout).map((c: { name: string }) => c.name)).toContain('json');
    const version = await sql('PRAGMA user_version', '--json');
    expect(version.code, version.stderr).toBe(0);
    expect(JSON.parse(version.stdout)[0]).toHaveProperty('user_version');
    const mmap = await sql('PRAGMA mmap_size', '--json');
    expect(mmap.code, mmap.stderr).toBe(0);
    expect(JSON.parse(mmap.stdout)).toEqual([{ mmap_size: 0 }]);
  });
});
