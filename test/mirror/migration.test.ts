// Schema migrations on open: a v1 mirror (built from the v1 DDL as shipped, fixtures/schema-v1.sql)
// is converted in place, in one transaction, without a sync; and `mtg find` on the converted file
// (whose index no longer stores text: snippets come from the JSON) gives the hits, order and
// snippets that snippet() gave on the v1 index.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../src/mirror/driver.js';
import { openMirror } from '../../src/mirror/open.js';
import { passageWriter } from '../../src/mirror/passages.js';
import { migrate, SCHEMA_VERSION, schemaVersion } from '../../src/mirror/schema.js';
import { findPassages, MATCH_END, MATCH_START, toMatchExpression } from '../../src/mirror/search.js';
import { tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

const V1_DDL = readFileSync(join(import.meta.dirname, 'fixtures', 'schema-v1.sql'), 'utf8');

const WORDS =
  'budget approval Café résumé naïve ÉCOLE the a and of we pricing proposal roadmap launch approved approve approving Zürich São Paulo déjà vu über straße 2026 v2.1 follow-up e-mail'.split(
    ' ',
  );

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A v1 mirror file holding `n` meetings with notes, action items, attendees and transcripts. */
function buildV1(dir: string, n: number): string {
  const path = join(dir, 'default.db');
  const db = openDb(path);
  const rand = prng(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const sentence = (min: number) => {
    const words = Array.from({ length: min + Math.floor(rand() * 30) }, () => pick(WORDS));
    return `${words.join(rand() < 0.2 ? ', ' : ' ')}${pick(['.', '!', ':', ''])}`;
  };
  db.transaction(() => {
    db.exec(V1_DDL);
    db.pragma('user_version = 1');
    db.prepare("INSERT INTO meta(key, value) VALUES ('base_url', 'http://127.0.0.1:1')").run();
    const passages = passageWriter(db);
    for (let i = 0; i < n; i++) {
      const id = `m${i}`;
      const meeting = {
        id,
        name: `${pick(['Pricing call', 'Budget review', 'Roadmap'])} ${i}`,
        createdAt: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`,
        updatedAt: '2026-02-01T00:00:00Z',
        notes: Array.from({ length: 3 }, () => sentence(3)).join('\n\n'),
        actionItems: [{ title: sentence(2), description: sentence(5) }],
        attendees: [{ name: 'Zoë Ångström', email: 'zoe@example.com', companyName: 'Café Ltd' }],
      };
      const transcript = Array.from({ length: 12 }, (_, k) => ({
        speaker: pick(['Ana', 'Björn', 'Chloé']),
        text: `${sentence(4)} ${sentence(10)}`,
        timestamp: k * 7.5,
      }));
      db.prepare(
        'INSERT INTO meetings(id, json, name, created_at, updated_at, position, seen_walk) VALUES (?, ?, ?, ?, ?, ?, 1)',
      ).run(id, JSON.stringify(meeting), meeting.name, meeting.createdAt, meeting.updatedAt, i);
      db.prepare(
        "INSERT INTO transcripts(meeting_id, json, for_updated_at, fetched_at) VALUES (?, ?, ?, '2026-02-01T00:00:00Z')",
      ).run(id, JSON.stringify(transcript), meeting.updatedAt);
      passages.rewrite(id);
    }
  });
  db.close();
  return path;
}

const QUERIES = [
  'budget',
  'cafe',
  'CAFÉ',
  'resume approv*',
  '"pricing proposal"',
  'budget OR roadmap',
  'approval -launch',
  'zurich',
  'straße',
  'deja vu',
  'sao* paulo',
  'v2',
  '2026',
  'naive ecole',
  'the a and of',
  'zoe',
];

type Hit = {
  meetingId: string;
  in: string;
  speaker: string | null;
  timestamp: number | null;
  snippet: string;
};

/** What v1's findPassages() returned: snippet() on the index that stored the text. */
function v1Find(db: Db, match: string): Hit[] {
  return db
    .prepare<Hit>(
      "SELECT p.meeting_id AS meetingId, p.kind AS 'in', p.speaker AS speaker, p.timestamp AS timestamp," +
        " snippet(passages, 0, ?, ?, '…', 16) AS snippet FROM passages AS p" +
        ' WHERE passages MATCH ? ORDER BY bm25(passages), p.rowid',
    )
    .all(MATCH_START, MATCH_END, match);
}

describe('schema migration v1 -> v2', () => {
  it('converts a v1 mirror in place without a sync; find gives the same hits, order and snippets', () => {
    const dir = tempDir('mtg-migrate-');
    const path = buildV1(dir, 60);
    const before = openDb(path, { readonly: true });
    const expected = new Map(QUERIES.map((q) => [q, v1Find(before, toMatchExpression(q))]));
    const v1Rows = before.prepare<{ n: number }>('SELECT count(*) AS n FROM passages').get()!.n;
    before.close();
    for (const [q, hits] of expected) expect(hits.length, q).toBeGreaterThan(0);
    expect(expected.get('budget')!.some((h) => h.snippet.startsWith('…'))).toBe(true);
    expect(expected.get('budget')!.some((h) => h.snippet.endsWith('…'))).toBe(true);

    const mirror = openMirror({ profile: 'default', dataDir: dir });
    try {
      const db = mirror.db;
      expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
      const tables = db
        .prepare<{ name: string }>("SELECT name FROM sqlite_master WHERE name LIKE 'passages%' ORDER BY name")
        .all()
        .map((r) => r.name);
      expect(tables).not.toContain('passages_v1');
      expect(tables.filter((t) => t.startsWith('passages_v1'))).toEqual([]);
      // Every row came over; the index stores no text now, but its other columns read as before.
      expect(db.prepare<{ n: number }>('SELECT count(*) AS n FROM passages').get()!.n).toBe(v1Rows);
      expect(
        db.prepare<{ n: number }>('SELECT count(*) AS n FROM passages WHERE text IS NOT NULL').get()!.n,
      ).toBe(0);
      expect(
        db.prepare<{ n: number }>("SELECT count(*) AS n FROM passages WHERE kind = 'transcript'").get()!.n,
      ).toBe(60 * 12);
      db.exec("INSERT INTO passages(passages) VALUES ('integrity-check')");
      expect(db.pragma('integrity_check')).toBe('ok');
      // The old index's pages were given back (VACUUM after the migration).
      expect(db.pragma('freelist_count')).toBe(0);
      for (const [q, hits] of expected) {
        const now = [...findPassages(db, toMatchExpression(q))].map((h) => ({
          meetingId: h.meetingId,
          in: h.in,
          speaker: h.speaker,
          timestamp: h.timestamp,
          snippet: h.snippet,
        }));
        expect(now, q).toEqual(hits);
      }
      // Meetings rewritten after the migration (rows deleted by rowid, inserted again) read as before.
      const writer = passageWriter(db);
      for (let i = 0; i < 60; i += 3) writer.rewrite(`m${i}`);
      const again = [...findPassages(db, toMatchExpression('budget'))].map((h) => h.snippet);
      expect(again).toEqual(expected.get('budget')!.map((h) => h.snippet));
      db.exec("INSERT INTO passages(passages) VALUES ('integrity-check')");
    } finally {
      mirror.close();
    }
  });

  it('a read-only command (find, mirror status) upgrades a v1 mirror by itself, offline, then answers', async () => {
    const dir = tempDir('mtg-migrate-ro-');
    const path = buildV1(dir, 20);
    const v1 = openDb(path, { readonly: true });
    const expected = v1Find(v1, toMatchExpression('budget')).length;
    v1.close();
    expect(expected).toBeGreaterThan(0);
    const env = { MTG_DATA_DIR: dir, MTG_CONFIG_DIR: tempConfigDir(), MTG_OFFLINE: '1' };
    const found = await runInProcess(['find', 'budget', '--json'], { env });
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout)).toHaveLength(expected);
    const db = openDb(path, { readonly: true });
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    db.close();
    const status = await runInProcess(['mirror', 'status', '--json'], { env });
    expect(status.code, status.stderr).toBe(0);
  });

  it('two upgrades at once: the one that read the old version before the other committed finds it done', () => {
    const dir = tempDir('mtg-migrate-race-');
    const path = buildV1(dir, 5);
    const first = openDb(path);
    const second = openDb(path);
    try {
      // The first upgrade runs whole between the second's read of user_version and its BEGIN: what
      // two read-only commands started together after an mtg update do.
      let raced = false;
      const late: Db = {
        ...second,
        pragma: ((source: string, simple?: boolean) => {
          const value = second.pragma(source, simple as true);
          if (source === 'user_version' && !raced) {
            raced = true;
            expect(migrate(first)).toBe(1);
          }
          return value;
        }) as Db['pragma'],
      };
      expect(() => migrate(late)).not.toThrow();
      expect(raced).toBe(true);
      expect(schemaVersion(second)).toBe(SCHEMA_VERSION);
      second.exec("INSERT INTO passages(passages) VALUES ('integrity-check')");
      expect(second.prepare<{ n: number }>('SELECT count(*) AS n FROM meetings').get()!.n).toBe(5);
    } finally {
      first.close();
      second.close();
    }
  });

  it('a read-only open whose upgrade fails for another reason than permissions says that reason', () => {
    const dir = tempDir('mtg-migrate-fail-');
    const path = buildV1(dir, 3);
    const db = openDb(path);
    // A table in the way of V2's rename: the upgrade fails, though the file is writable.
    db.exec('CREATE TABLE passages_v1 (x)');
    db.close();
    let message = '';
    try {
      openMirror({ profile: 'default', dataDir: dir, readonly: true }).close();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('passages_v1');
    expect(message).not.toContain('as its owner');
    const after = openDb(path, { readonly: true });
    expect(schemaVersion(after)).toBe(1);
    after.close();
  });

  it('is one transaction: a failure before its commit leaves the v1 file as it was', () => {
    const dir = tempDir('mtg-migrate-');
    const path = buildV1(dir, 5);
    const db = openDb(path);
    // The last step inside the transaction fails, after every statement of the migration ran: the
    // same state a SIGKILL at that moment leaves (WAL frames without a commit are never read).
    const failing: Db = {
      ...db,
      pragma: ((source: string, simple?: boolean) => {
        if (source.startsWith('user_version =')) throw new Error('killed before the commit');
        return db.pragma(source, simple as true);
      }) as Db['pragma'],
    };
    expect(() => migrate(failing)).toThrow('killed before the commit');
    expect(schemaVersion(db)).toBe(1);
    const sql = db
      .prepare<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'passages'")
      .get()!.sql;
    expect(sql).not.toContain("content = ''");
    expect(
      db
        .prepare<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'passages_v1%'")
        .get()!.n,
    ).toBe(0);
    expect(
      db.prepare<{ n: number }>('SELECT count(*) AS n FROM passages WHERE text IS NOT NULL').get()!.n,
    ).toBeGreaterThan(0);
    // And the next open migrates it.
    db.close();
    const mirror = openMirror({ profile: 'default', dataDir: dir });
    expect(schemaVersion(mirror.db)).toBe(SCHEMA_VERSION);
    mirror.close();
  });
});
