// Issue 30: schema 8 rebuilds the search index with its text as the terminal shows it. A mirror of
// schema 7 whose index holds a name's escape sequence ("ESC ] 0;pwned BEL", indexed as "0;pwned")
// opens, and its first `find`, offline (no request: nothing listens at its server), rebuilds the
// index from what the mirror holds, in batches a kill leaves consistent and the next find goes on
// with; then "pwned" finds nothing, and find answers as on a mirror indexed today.

import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/mirror/driver.js';
import { openMirror } from '../../src/mirror/open.js';
import { buildIndex, passageWriter, rowIdOf, unindexedCount } from '../../src/mirror/passages.js';
import { tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

const OSC_NAME = 'Standup \u001b]0;pwned\u0007 roundup';
/** Nothing listens on port 9 of the loopback: a request would fail the command. */
const UNREACHABLE = 'http://127.0.0.1:9';

/** A mirror of `count` meetings indexed by today's writer; the first is named with an OSC title. */
function buildMirror(dir: string, count: number): string {
  const mirror = openMirror({ profile: 'default', dataDir: dir, baseUrl: UNREACHABLE });
  const db = mirror.db;
  const writer = passageWriter(db);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = `m_${String(i).padStart(3, '0')}`;
      const name = i === 0 ? OSC_NAME : `Weekly ${i}`;
      const at = `2026-02-01T${String(i % 24).padStart(2, '0')}:00:00Z`;
      db.prepare(
        'INSERT INTO meetings(id, json, name, created_at, updated_at, position, seen_walk) VALUES (?, ?, ?, ?, ?, ?, 1)',
      ).run(
        id,
        JSON.stringify({ id, name, createdAt: at, notes: `The roundup ${i} of the week.` }),
        name,
        at,
        at,
        i,
      );
      writer.rewrite(id);
    }
  });
  mirror.close();
  return join(dir, 'default.db');
}

/**
 * The file as schema 7's writer left it: the OSC name's row indexed with its sequence's parameters
 * (control characters aside: the tokenizer splits on them), and user_version 7.
 */
function toSchema7(path: string): void {
  const db = openDb(path);
  const base = Number(
    db.prepare<{ base: number }>("SELECT passage_base AS base FROM meetings WHERE id = 'm_000'").get()!.base,
  );
  const rowid = rowIdOf(base, 'name', 0);
  db.prepare('DELETE FROM passages WHERE rowid = ?').run(rowid);
  db.prepare("INSERT INTO passages(rowid, text, speakers) VALUES (?, ?, '')").run(rowid, OSC_NAME);
  db.prepare("INSERT OR IGNORE INTO search_vocab(term) VALUES ('pwned')").run();
  db.pragma('user_version = 7');
  db.close();
}

const env = (dir: string) => ({
  MTG_DATA_DIR: dir,
  MTG_CONFIG_DIR: tempConfigDir(),
  MTG_BASE_URL: UNREACHABLE,
  MTG_API_KEY: 'test-key',
  MTG_OFFLINE: '1',
});

describe('a mirror of schema 7 (its index holds an escape sequence)', () => {
  it('is re-indexed offline by its first find, a killed build resumed: "pwned" finds nothing, the hits those of a mirror indexed today', async () => {
    const dir = tempDir('mtg-search-v7-');
    const path = buildMirror(dir, 60);
    const todayDir = tempDir('mtg-search-v8-');
    mkdirSync(todayDir, { recursive: true });
    copyFileSync(path, join(todayDir, 'default.db'));
    toSchema7(path);
    // As schema 7 indexed it: found by the sequence's parameters.
    const old = openDb(path, { readonly: true });
    expect(
      old.prepare<{ n: number }>("SELECT count(*) AS n FROM passages WHERE passages MATCH 'pwned'").get()!.n,
    ).toBe(1);
    old.close();

    // Opened (and migrated), then a build killed after its first batch: what it indexed stays.
    const mirror = openMirror({ profile: 'default', dataDir: dir, baseUrl: UNREACHABLE });
    expect(unindexedCount(mirror.db)).toBe(60);
    expect(() =>
      buildIndex(mirror.db, () => {
        throw new Error('killed');
      }),
    ).toThrow('killed');
    expect(unindexedCount(mirror.db)).toBe(35);
    mirror.db.exec("INSERT INTO passages(passages) VALUES ('integrity-check')");
    mirror.close();

    const r = await runInProcess(['find', 'pwned', '--exact', '--json'], { env: env(dir) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Building the search index from the mirror (35 meetings');
    expect(JSON.parse(r.stdout)).toEqual([]);
    const roundup = await runInProcess(['find', 'roundup', '--json', '--limit', '70'], { env: env(dir) });
    expect(roundup.code, roundup.stderr).toBe(0);
    expect(roundup.stderr).not.toContain('Building');
    const name = (JSON.parse(roundup.stdout) as { meetingId: string; in: string; snippet: string }[]).find(
      (h) => h.meetingId === 'm_000' && h.in === 'name',
    )!;
    expect(name.snippet).toBe('Standup  **roundup**');
    const today = await runInProcess(['find', 'roundup', '--json', '--limit', '70'], { env: env(todayDir) });
    expect(roundup.stdout).toBe(today.stdout);
  }, 60_000);
});

// QA: schema 9 indexes a paragraph of notes that is only a heading ("## Decisions") with the
// paragraph it introduces; schema 8 made the heading a passage of its own, the top hits of "what did
// we decide about pricing?" were "## **Decisions**" alone, and the decision under it was not among
// them. A mirror of schema 8 is re-indexed offline by its first find, as after schema 8's upgrade.

const NOTES = (i: number) =>
  [
    `# Review ${i}`,
    '## Summary',
    `- Walked through the roadmap of team ${i}.`,
    '## Decisions',
    `1. **Owner:** finalize the pricing proposal of team ${i}`,
  ].join('\n\n');

/** A mirror of `count` meetings whose notes have headings, indexed by today's writer. */
function buildNotesMirror(dir: string, count: number): string {
  const mirror = openMirror({ profile: 'default', dataDir: dir, baseUrl: UNREACHABLE });
  const db = mirror.db;
  const writer = passageWriter(db);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = `m_${String(i).padStart(3, '0')}`;
      const at = `2026-03-01T${String(i % 24).padStart(2, '0')}:00:00Z`;
      const json = { id, name: `Review ${i}`, createdAt: at, notes: NOTES(i) };
      db.prepare(
        'INSERT INTO meetings(id, json, name, created_at, updated_at, position, seen_walk) VALUES (?, ?, ?, ?, ?, ?, 1)',
      ).run(id, JSON.stringify(json), json.name, at, at, i);
      writer.rewrite(id);
    }
  });
  mirror.close();
  return join(dir, 'default.db');
}

/** The file as schema 8's writer left it: each paragraph of notes a row of its own, user_version 8. */
function toSchema8(path: string): void {
  const db = openDb(path);
  const rows = db
    .prepare<{ base: number; json: string }>('SELECT passage_base AS base, json FROM meetings')
    .all();
  for (const r of rows) {
    const base = Number(r.base);
    const m = JSON.parse(r.json) as { name: string; notes: string };
    db.prepare('DELETE FROM passages WHERE rowid BETWEEN ? AND ?').run(
      rowIdOf(base, 'name', 0),
      rowIdOf(base + 1, 'name', 0) - 1,
    );
    const ins = db.prepare("INSERT INTO passages(rowid, text, speakers) VALUES (?, ?, '')");
    ins.run(rowIdOf(base, 'name', 0), m.name);
    for (const [k, p] of m.notes.split('\n\n').entries()) ins.run(rowIdOf(base, 'notes', k + 1), p);
  }
  db.pragma('user_version = 8');
  db.close();
}

describe('a mirror of schema 8 (a heading of its notes a passage of its own)', () => {
  it('is re-indexed offline by its first find: the heading comes with the decision it introduces', async () => {
    const dir = tempDir('mtg-search-v8-');
    const path = buildNotesMirror(dir, 30);
    const todayDir = tempDir('mtg-search-v9-');
    copyFileSync(path, join(todayDir, 'default.db'));
    toSchema8(path);
    // As schema 8 indexed it: no row holds both the heading and the decision.
    const old = openDb(path, { readonly: true });
    const both = "SELECT count(*) AS n FROM passages WHERE passages MATCH 'decisions AND pricing'";
    expect(old.prepare<{ n: number }>(both).get()!.n).toBe(0);
    old.close();

    const q = ['find', 'what did we decide about the decisions on pricing?', '--json', '--limit', '6'];
    const r = await runInProcess(q, { env: env(dir) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Building the search index from the mirror (30 meetings');
    const hits = JSON.parse(r.stdout) as { in: string; snippet: string }[];
    expect(hits).toHaveLength(6);
    for (const h of hits) {
      expect(h.in).toBe('notes');
      expect(h.snippet).toMatch(
        /^## \*\*Decisions\*\*\n1\. \*\*Owner:\*\* finalize the \*\*pricing\*\* proposal/,
      );
    }
    const upgraded = openDb(path, { readonly: true });
    expect(upgraded.prepare<{ n: number }>(both).get()!.n).toBe(30);
    upgraded.close();
    const today = await runInProcess(q, { env: env(todayDir) });
    expect(r.stdout).toBe(today.stdout);
  }, 60_000);
});
