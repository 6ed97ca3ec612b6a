// Schema migrations on open: a v1 mirror (built from the v1 DDL as shipped, fixtures/schema-v1.sql,
// its index written as v1 wrote it) is migrated in place, in one transaction, without a sync; its
// search index (schema 4: windows, stems, speakers) is then built from what it holds on first use,
// and `mtg find` gives what it gives on a mirror synced by today's mtg.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../src/mirror/driver.js';
import { openMirror } from '../../src/mirror/open.js';
import { buildIndex, meetingPassages, passageWriter, unindexedCount } from '../../src/mirror/passages.js';
import { migrate, SCHEMA_VERSION, schemaVersion } from '../../src/mirror/schema.js';
import {
  findPassages,
  MATCH_END,
  MATCH_START,
  planSearch,
  toMatchExpression,
} from '../../src/mirror/search.js';
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

/** The v1 index of a meeting, as v1 wrote it: one row per passage, its text stored. */
function v1Passages(db: Db, id: string, base: number): void {
  const m = db.prepare<{ json: string }>('SELECT json FROM meetings WHERE id = ?').get(id)!;
  const t = db.prepare<{ json: string }>('SELECT json FROM transcripts WHERE meeting_id = ?').get(id);
  db.prepare('UPDATE meetings SET passage_base = ? WHERE id = ?').run(base, id);
  meetingPassages(JSON.parse(m.json), t ? JSON.parse(t.json) : undefined).forEach((p, i) => {
    db.prepare(
      'INSERT INTO passages(rowid, text, meeting_id, kind, speaker, timestamp) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(base * 2 ** 20 + i, p.text, id, p.kind, p.speaker ?? null, p.timestamp ?? null);
  });
}

/**
 * A mirror file holding `n` meetings with notes, action items, attendees and transcripts: of schema
 * v1 (its index as v1 wrote it), or `current`: as today's mtg writes it.
 */
function buildV1(dir: string, n: number, current = false): string {
  const path = join(dir, 'default.db');
  if (current) openMirror({ profile: 'default', dataDir: dir, baseUrl: 'http://127.0.0.1:1' }).close();
  const db = openDb(path);
  const rand = prng(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const sentence = (min: number) => {
    const words = Array.from({ length: min + Math.floor(rand() * 30) }, () => pick(WORDS));
    return `${words.join(rand() < 0.2 ? ', ' : ' ')}${pick(['.', '!', ':', ''])}`;
  };
  db.transaction(() => {
    if (!current) {
      db.exec(V1_DDL);
      db.pragma('user_version = 1');
      db.prepare("INSERT INTO meta(key, value) VALUES ('base_url', 'http://127.0.0.1:1')").run();
    }
    const passages = current ? passageWriter(db) : undefined;
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
      if (passages) passages.rewrite(id);
      else v1Passages(db, id, i + 1);
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

describe('schema migration v1 -> v4', () => {
  it('migrates a v1 mirror in place without a sync, builds its search index from what it holds; find answers as on a new mirror', () => {
    const dir = tempDir('mtg-migrate-');
    const path = buildV1(dir, 60);
    const before = openDb(path, { readonly: true });
    for (const q of QUERIES) expect(v1Find(before, toMatchExpression(q)).length, q).toBeGreaterThan(0);
    before.close();
    const fresh = openDb(buildV1(tempDir('mtg-migrate-fresh-'), 60, true), { readonly: true });

    const mirror = openMirror({ profile: 'default', dataDir: dir });
    try {
      const db = mirror.db;
      expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
      expect(
        db
          .prepare<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'passages_v1%'")
          .get()!.n,
      ).toBe(0);
      // The old index is gone (its pages given back); the new one is built on first use.
      expect(db.pragma('freelist_count')).toBe(0);
      expect(unindexedCount(db)).toBe(60);
      const progress: number[] = [];
      expect(buildIndex(db, (done) => progress.push(done))).toBe(60);
      expect(progress.at(-1)).toBe(60);
      expect(unindexedCount(db)).toBe(0);
      db.exec("INSERT INTO passages(passages) VALUES ('integrity-check')");
      expect(db.pragma('integrity_check')).toBe('ok');
      for (const q of QUERIES) {
        const now = [...findPassages(db, planSearch(db, q))];
        expect(now.length, q).toBeGreaterThan(0);
        expect(now, q).toEqual([...findPassages(fresh, planSearch(fresh, q))]);
      }
    } finally {
      mirror.close();
      fresh.close();
    }
  });

  it('a read-only command (find, mirror status) upgrades a v1 mirror by itself, offline, then answers', async () => {
    const dir = tempDir('mtg-migrate-ro-');
    const path = buildV1(dir, 20);
    const v1 = openDb(path, { readonly: true });
    const expected = new Set(v1Find(v1, toMatchExpression('budget')).map((h) => h.meetingId));
    v1.close();
    expect(expected.size).toBeGreaterThan(0);
    const env = { MTG_DATA_DIR: dir, MTG_CONFIG_DIR: tempConfigDir(), MTG_OFFLINE: '1' };
    const found = await runInProcess(['find', 'budget', '--json'], { env });
    expect(found.code, found.stderr).toBe(0);
    expect(new Set(JSON.parse(found.stdout).map((h: Hit) => h.meetingId))).toEqual(expected);
    expect(found.stderr).toContain('Building the search index from the mirror (20 meetings');
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
