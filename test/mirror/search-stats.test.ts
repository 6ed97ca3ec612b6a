// What a search keeps between searches on one connection (the MCP server keeps one for its life):
// the index's statistics and typo corrections hold only while the mirror is unchanged. And the
// first stage that ranks only the newest windows of common words still ranks every window holding
// one of the query's rarer words.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../../bench/mirror-fixture.js';
import { type Db, openDb } from '../../src/mirror/driver.js';
import { type Passage, passageWriter } from '../../src/mirror/passages.js';
import { findPassages, plainSnippet, planSearch, TUNE } from '../../src/mirror/search.js';
import { meetingPassagesCache } from '../../src/mirror/search-plan.js';
import { tempDir } from '../helpers/temp.js';

describe('search on one connection', () => {
  let db: Db;
  let other: Db;
  let dir: string;
  beforeAll(() => {
    dir = tempDir('mtg-search-stats-');
    buildFixture({
      dataDir: dir,
      meetings: 40,
      transcriptBytes: 10_000,
      seed: 7,
      rareEvery: 6,
      rareWord: 'zanzibarium',
    });
    db = openDb(join(dir, 'default.db'));
    other = openDb(join(dir, 'default.db'));
  }, 120_000);
  afterAll(() => {
    db?.close();
    other?.close();
  });

  const rename = (conn: Db, name: string) => {
    const row = conn
      .prepare<{ id: string; json: string }>('SELECT id, json FROM meetings ORDER BY id LIMIT 1')
      .get()!;
    conn
      .prepare('UPDATE meetings SET json = ? WHERE id = ?')
      .run(JSON.stringify({ ...JSON.parse(row.json), name }), row.id);
    passageWriter(conn).rewrite(row.id);
    return row.id;
  };

  it('a word written after a first search is found as written, not corrected, by this connection and another', () => {
    // "quokkas" matches nothing yet: nothing near it either, so it stays as typed and finds nothing.
    expect([...findPassages(db, planSearch(db, 'quokkas'), { limit: 5 })]).toEqual([]);
    expect([...findPassages(other, planSearch(other, 'quokkas'), { limit: 5 })]).toEqual([]);
    const id = rename(db, 'Quokkas review');
    for (const conn of [db, other]) {
      const plan = planSearch(conn, 'quokkas');
      expect(plan.corrections).toEqual([]);
      const hits = [...findPassages(conn, plan, { limit: 5 })];
      expect(hits.map((h) => [h.meetingId, h.in])).toEqual([[id, 'name']]);
    }
    // And a word that matched before and no longer does is corrected again, to its nearest word.
    rename(other, 'Quokkos review');
    expect(planSearch(db, 'quokkas').corrections).toEqual([{ from: 'quokkas', to: 'quokkos' }]);
  });

  it("a meeting's passages read by a first search are read again once it is rewritten, by this connection and another", () => {
    const id = rename(db, 'Wombat planning');
    for (const conn of [db, other])
      expect(
        [...findPassages(conn, planSearch(conn, 'wombat'), { limit: 5 })].map((h) => plainSnippet(h.snippet)),
      ).toEqual(['**Wombat** planning']);
    for (const [writer, conn] of [
      [db, other],
      [other, db],
    ] as const) {
      const name = writer === db ? 'Wombat budget' : 'Wombat roadmap';
      expect(rename(writer, name)).toBe(id);
      for (const reader of [writer, conn]) {
        const hits = [...findPassages(reader, planSearch(reader, 'wombat'), { limit: 5 })];
        expect(hits.map((h) => [h.meetingId, plainSnippet(h.snippet)])).toEqual([
          [id, name.replace('Wombat', '**Wombat**')],
        ]);
      }
    }
  });

  it('a window holding a rare word of the query is ranked when its common words match more windows than bm25 ranks', () => {
    const before = { ...TUNE };
    try {
      const all = [...findPassages(db, planSearch(db, 'roadmap budget zanzibarium'), { limit: 40 })];
      const rare = all.filter((h) => h.matched.includes('zanzibarium')).map((h) => h.meetingId);
      expect(rare.length).toBeGreaterThanOrEqual(2);
      // bm25 ranks only the 20 newest windows holding any of the words, and every one holding the rare word.
      Object.assign(TUNE, { scored: 20, rare: 20 });
      const capped = [...findPassages(db, planSearch(db, 'roadmap budget zanzibarium'), { limit: 40 })];
      expect(
        capped
          .filter((h) => h.matched.includes('zanzibarium'))
          .map((h) => h.meetingId)
          .sort(),
      ).toEqual([...rare].sort());
    } finally {
      Object.assign(TUNE, before);
    }
  });

  it("a one-word search does not count the index's passages (its one weight cancels out); a two-word one does", () => {
    // Counting walks every row of passages_docsize: ~300 page faults at each start of `mtg find`
    // on a mirror of 5,000 meetings (bench/README.md, issue 33). A fresh connection: no size kept.
    const fresh = openDb(join(dir, 'default.db'));
    const texts: string[] = [];
    const prepare = fresh.prepare.bind(fresh);
    fresh.prepare = ((sql: string) => {
      texts.push(sql);
      return prepare(sql);
    }) as typeof fresh.prepare;
    const counts = () => texts.filter((t) => t.includes('passages_docsize')).length;
    try {
      const hits = [...findPassages(fresh, planSearch(fresh, 'zanzibarium'), { limit: 5 })];
      expect(hits.length).toBeGreaterThan(0);
      expect(counts()).toBe(0);
      expect(
        [...findPassages(fresh, planSearch(fresh, 'zanzibarium account'), { limit: 5 })].length,
      ).toBeGreaterThan(0);
      expect(counts()).toBe(1);
    } finally {
      fresh.close();
    }
  });

  it("a connection keeps meetings' passages up to its limit, dropping the least recently used first, and none once the mirror changes", () => {
    const reads: string[] = [];
    const passagesOf = (id: string, n: number): Passage[] =>
      Array.from({ length: n }, (_, i) => ({
        kind: 'transcript',
        text: `${id} ${i}`,
        speaker: null,
        timestamp: i,
      }));
    // Each meeting holds 4 passages; the connection keeps 10 at most.
    const get = (id: string) =>
      meetingPassagesCache(
        db,
        id,
        () => {
          reads.push(id);
          return passagesOf(id, 4);
        },
        10,
      );
    for (const id of ['a', 'b', 'a', 'c', 'a', 'b', 'c', 'a']) expect(get(id)[0]!.text).toBe(`${id} 0`);
    // c (12 passages) drops b, the least recently used; b again drops c; c again drops a.
    expect(reads).toEqual(['a', 'b', 'c', 'b', 'c', 'a']);
    reads.length = 0;
    for (const id of ['c', 'a']) get(id);
    expect(reads).toEqual([]);
    // Any write to the mirror (here by another connection) and every meeting is read again.
    other.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('search-stats-test', '1')").run();
    for (const id of ['c', 'a']) get(id);
    expect(reads).toEqual(['c', 'a']);
  });
});
