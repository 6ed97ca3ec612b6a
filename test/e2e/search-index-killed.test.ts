// Issue 30: a mirror of schema 3 (the last released) gets the question-aware index on first use,
// built from what it holds. A real `mtg find` killed with SIGKILL in the middle of that build
// leaves a mirror the next `mtg find` completes: it sends no request, and its hits are those of
// the same mirror built without a kill.
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/mirror/driver.js';
import { openMirror } from '../../src/mirror/open.js';
import { waitUntil } from '../hardening/helpers.js';
import { runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const MEETINGS = 3000;
/** The mirror's server: nothing listens on port 9 of the loopback, so a request would fail the run. */
const UNREACHABLE = 'http://127.0.0.1:9';
const WORDS = 'budget remote buttons pricing launch review design battery quarter office'.split(' ');

/**
 * A mirror as mtg of schema 3 left it: the meetings and transcripts, the v2/v3 index table (text,
 * meeting_id, kind, speaker, timestamp) and user_version 3. Made by today's openMirror and then
 * taken back to the tables of schema 3 (the rows of meetings and transcripts did not change).
 */
function buildV3(dir: string): string {
  const mirror = openMirror({ profile: 'default', dataDir: dir, baseUrl: UNREACHABLE });
  const db = mirror.db;
  db.transaction(() => {
    const meeting = db.prepare(
      'INSERT INTO meetings(id, json, name, created_at, updated_at, position, seen_walk) VALUES (?, ?, ?, ?, ?, ?, 1)',
    );
    const transcript = db.prepare(
      'INSERT INTO transcripts(meeting_id, json, for_updated_at, fetched_at) VALUES (?, ?, ?, ?)',
    );
    for (let i = 0; i < MEETINGS; i++) {
      const id = `m_${String(i).padStart(5, '0')}`;
      const at = new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
      const name = `Weekly ${i}`;
      const notes = i % 100 === 7 ? `The kiwifruit order ${i} is late.` : `Notes of ${i}.`;
      meeting.run(id, JSON.stringify({ id, name, createdAt: at, notes }), name, at, at, i);
      const entries = Array.from({ length: 60 }, (_, k) => ({
        speaker: `Speaker ${k % 4}`,
        text: `We talked about the ${WORDS[(i + k) % WORDS.length]} and the ${WORDS[(i * 7 + k) % WORDS.length]} .`,
        timestamp: k * 15,
      }));
      transcript.run(id, JSON.stringify(entries), at, at);
    }
  });
  mirror.close();
  // better-sqlite3 in unsafe mode (no defensive mode): the driver's forbids dropping the content table that a
  // contentless_unindexed table leaves behind, and schema 3 had none of its own.
  const raw = new (createRequire(import.meta.url)('better-sqlite3'))(join(dir, 'default.db'));
  raw.unsafeMode(true);
  raw.exec(`
    DROP TABLE IF EXISTS passages_terms;
    INSERT INTO passages(passages) VALUES ('delete-all');
    DROP TABLE passages;
    DROP TABLE IF EXISTS passages_content;
    CREATE VIRTUAL TABLE passages USING fts5(
      text, meeting_id UNINDEXED, kind UNINDEXED, speaker UNINDEXED, timestamp UNINDEXED,
      content = '', contentless_delete = 1, contentless_unindexed = 1,
      tokenize = 'unicode61 remove_diacritics 2'
    );
    INSERT INTO passages(rowid, text, meeting_id, kind) SELECT rowid, name, id, 'name' FROM meetings;
    UPDATE meetings SET passage_base = rowid;
    DROP TABLE pass_lists; -- schema 3 had no sync passes (schema 6 creates them)
    DROP TABLE passes;
  `);
  raw.pragma('user_version = 3');
  raw.close();
  return join(dir, 'default.db');
}

function upgraded(path: string): boolean {
  const db = openDb(path);
  try {
    return Number(db.pragma('user_version')) >= 4;
  } finally {
    db.close();
  }
}

function indexedCount(path: string): number {
  const db = openDb(path);
  try {
    return db
      .prepare<{ n: number }>(
        'SELECT count(*) AS n FROM meetings WHERE passage_base IS NOT NULL AND deleted_at IS NULL',
      )
      .get()!.n;
  } finally {
    db.close();
  }
}

describe('the search index built on upgrade, killed mid-build', () => {
  it('is completed by the next find, offline, with the hits of an index built in one go', async () => {
    const killedDir = tempDir('mtg-index-killed-');
    const path = buildV3(killedDir);
    const freshDir = tempDir('mtg-index-fresh-');
    copyFileSync(path, join(freshDir, 'default.db'));
    const env = (dir: string) => ({
      MTG_DATA_DIR: dir,
      MTG_CONFIG_DIR: tempConfigDir(),
      MTG_BASE_URL: UNREACHABLE,
      MTG_API_KEY: 'test-key',
    });
    const args = ['find', 'what', 'about', 'the', 'kiwifruit', 'budget?', '--json', '--limit', '50'];

    const killed = spawnCli(args, env(killedDir));
    // Killed once the build has committed some of its batches, before it ends.
    let exited = false;
    void killed.done.then(() => {
      exited = true;
    });
    await waitUntil(() => exited || (upgraded(path) && indexedCount(path) > 0), 60_000, 'a first batch');
    expect(exited, killed.stderr()).toBe(false);
    killed.child.kill('SIGKILL');
    expect((await killed.done).signal).toBe('SIGKILL');
    const left = indexedCount(path);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(MEETINGS);

    const again = await runCli(args, { env: env(killedDir), timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(indexedCount(path)).toBe(MEETINGS);
    const fresh = await runCli(args, { env: env(freshDir), timeoutMs: 120_000 });
    expect(fresh.code, fresh.stderr).toBe(0);
    const hits = JSON.parse(again.stdout) as { meetingId: string }[];
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.filter((h) => h.meetingId === 'm_00007').length).toBeGreaterThan(0);
    expect(again.stdout).toBe(fresh.stdout);
    // The typo lookup's vocabulary (schema 7) was written with the index's rows, kill or not.
    const db = openDb(path, { readonly: true });
    try {
      const terms = (table: string) =>
        db
          .prepare<{ term: string }>(`SELECT term FROM ${table} ORDER BY term`)
          .all()
          .map((r) => r.term);
      expect(terms('search_vocab')).toEqual(terms('passages_terms'));
      expect(terms('search_vocab')).toContain('kiwifruit');
    } finally {
      db.close();
    }
  }, 240_000);
});
