// Issue 30: the typo lookup's vocabulary (schema 7). The index's writer lists every term it writes;
// a mirror whose vocabulary is not listed yet (schema 7's upgrade of a mirror of schema 6) opens, and
// its first search lists the index's terms offline, in batches that survive a kill, `mtg mirror
// status` saying so meanwhile; and the lookup over the vocabulary corrects a word as comparing it
// with every indexed word's forms does.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../../bench/mirror-fixture.js';
import { type Db, openDb } from '../../src/mirror/driver.js';
import { passageWriter } from '../../src/mirror/passages.js';
import { docCount, editDistance, planSearch } from '../../src/mirror/search-plan.js';
import {
  buildVocabulary,
  nearestWord,
  VOCAB_AFTER,
  vocabularyPending,
} from '../../src/mirror/search-vocab.js';
import { tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

const terms = (db: Db, table: string) =>
  db
    .prepare<{ term: string }>(`SELECT term FROM ${table} ORDER BY term`)
    .all()
    .map((r) => r.term);

/** A mirror of `meetings` meetings of the bench fixture (pseudo-words: thousands of terms). */
function fixture(prefix: string, meetings: number): string {
  const dir = tempDir(prefix);
  buildFixture({ dataDir: dir, meetings, transcriptBytes: 6_000, seed: 3, rareEvery: 5, rareWord: 'quokka' });
  return dir;
}

/**
 * The mirror as schema 7's upgrade left a mirror of schema 6: its index kept, its vocabulary empty
 * and to be copied from it. (Opening a mirror of schema 6 today migrates it through schema 8, which
 * rebuilds the index and its vocabulary with it: test/mirror/search-norms.test.ts.)
 */
function vocabularyToCopy(path: string): void {
  const db = openDb(path);
  db.exec(`DELETE FROM search_vocab; INSERT INTO meta(key, value) VALUES ('${VOCAB_AFTER}', '')`);
  db.close();
}

/**
 * The reference: every indexed term of the word's first letter, each of its spelled forms compared
 * whole (what the lookup did before schema 7), the nearest, the most frequent on a tie.
 */
function reference(db: Db, word: string, stem: string): string | undefined {
  const max = word.length > 5 ? 2 : 1;
  if (word.length < 3) return undefined;
  let best: { form: string; d: number; doc: number } | undefined;
  for (const { term, doc } of db
    .prepare<{ term: string; doc: number }>(
      'SELECT term, doc FROM passages_terms WHERE term >= ? AND term < ?',
    )
    .all(stem[0]!, String.fromCodePoint(stem.codePointAt(0)! + 1))) {
    const forms = ['', 's', 'ed', 'ing', 'e', 'es', 'er', 'ion'].map((e) => term + e);
    if (term.endsWith('e')) forms.push(...['ing', 'ed', 'ion'].map((e) => term.slice(0, -1) + e));
    if (term.endsWith('i')) forms.push(...['y', 'ies'].map((e) => term.slice(0, -1) + e));
    for (const form of forms) {
      const d = editDistance(word, form, max);
      if (d <= max && (!best || d < best.d || (d === best.d && doc > best.doc)))
        best = { form, d, doc: Number(doc) };
    }
  }
  return best?.form;
}

describe('the typo vocabulary', () => {
  let dir: string;
  let db: Db;
  beforeAll(() => {
    dir = fixture('mtg-vocab-', 30);
    db = openDb(join(dir, 'default.db'));
  }, 120_000);
  afterAll(() => db?.close());

  it('lists every term the index holds, kept by the index writer', () => {
    expect(vocabularyPending(db)).toBe(false);
    const indexed = terms(db, 'passages_terms');
    expect(indexed.length).toBeGreaterThan(2000);
    expect(terms(db, 'search_vocab')).toEqual(indexed);
    // A meeting rewritten with new words: they are listed in the same transaction.
    const row = db.prepare<{ id: string; json: string }>('SELECT id, json FROM meetings LIMIT 1').get()!;
    db.transaction(() => {
      db.prepare('UPDATE meetings SET json = ? WHERE id = ?').run(
        JSON.stringify({ ...JSON.parse(row.json), name: 'Wombatry über 季度' }),
        row.id,
      );
      passageWriter(db).rewrite(row.id);
    });
    // A write rolled back, then made again by the same writer: its words are listed (the writer
    // does not take them for listed already).
    const writer = passageWriter(db);
    const rename = (name: string) => {
      db.prepare('UPDATE meetings SET json = ? WHERE id = ?').run(
        JSON.stringify({ ...JSON.parse(row.json), name }),
        row.id,
      );
      writer.rewrite(row.id);
    };
    expect(() =>
      db.transaction(() => {
        rename('Numbatory');
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(terms(db, 'search_vocab')).not.toContain('numbatori');
    db.transaction(() => rename('Numbatory'));
    const vocab = new Set(terms(db, 'search_vocab'));
    for (const t of ['wombatri', 'uber', '季', '度', 'numbatori']) expect(vocab.has(t), t).toBe(true);
    for (const t of terms(db, 'passages_terms')) expect(vocab.has(t), t).toBe(true);
  });

  it('corrects a misspelled word as comparing it with every indexed form does, vocabulary or not', () => {
    const indexed = terms(db, 'passages_terms').filter((t) => /^[a-z]{4,}$/.test(t));
    // Misspellings of indexed words: a letter dropped, changed, doubled, two swapped, two changed.
    const words = new Set<string>();
    indexed.forEach((t, i) => {
      if (i % 61 !== 0) return;
      const k = 1 + (i % (t.length - 1));
      words.add(t.slice(0, k) + t.slice(k + 1));
      words.add(`${t.slice(0, k)}x${t.slice(k + 1)}`);
      words.add(t.slice(0, k) + t[k] + t.slice(k));
      words.add(t.slice(0, k - 1) + t[k] + t[k - 1] + t.slice(k + 1));
      words.add(`${t.slice(0, 1)}zq${t.slice(3)}ing`);
      // Two letters swapped across the stem and its ending ("approving" as "approiving"), also
      // where the ending replaces the stem's last letter ("pricing" from "price" as "pricnig").
      words.add(`${t.slice(0, -1)}i${t.slice(-1)}ng`);
      words.add(`${t.slice(0, -1)}e${t.slice(-1)}d`);
      if (t.endsWith('e') || t.endsWith('i')) words.add(`${t.slice(0, -2)}i${t.slice(-2, -1)}ng`);
    });
    const docs = (t: string) => docCount(db, t);
    let corrected = 0;
    for (const word of words) {
      if (docs(word) > 0) continue;
      const expected = reference(db, word, word);
      expect(nearestWord(db, word, word, docs), word).toBe(expected);
      // The same through fts5vocab, while a vocabulary is being listed.
      db.exec(`INSERT INTO meta(key, value) VALUES ('${VOCAB_AFTER}', '')`);
      expect(nearestWord(db, word, word, docs), word).toBe(expected);
      db.exec(`DELETE FROM meta WHERE key = '${VOCAB_AFTER}'`);
      if (expected !== undefined) corrected++;
    }
    expect(corrected).toBeGreaterThan(30);
  });
});

describe("a mirror whose vocabulary is not listed yet (as schema 7's upgrade left one of schema 6)", () => {
  it('gets its vocabulary from the index on first search, offline; a copy killed half-way resumes', async () => {
    const dir = fixture('mtg-vocab-v6-', 20);
    const path = join(dir, 'default.db');
    const before = openDb(path, { readonly: true });
    const expected = terms(before, 'passages_terms');
    const misspelt = `${expected.find((t) => /^[a-z]{6,}$/.test(t) && !t.endsWith('e'))!}q`;
    const correction = reference(before, misspelt, misspelt);
    before.close();
    expect(correction).toBeDefined();
    vocabularyToCopy(path);
    const env = { MTG_DATA_DIR: dir, MTG_CONFIG_DIR: tempConfigDir(), MTG_OFFLINE: '1' };
    const status = await runInProcess(['mirror', 'status', '--json'], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).searchIndex).toEqual({
      state: 'building',
      pending: 0,
      vocabulary: 'building',
    });
    // Killed after its first batches: what it listed stays, and where it stands.
    const db = openDb(path);
    let batches = 0;
    expect(() =>
      buildVocabulary(
        db,
        () => {
          if (++batches === 3) throw new Error('killed');
        },
        100,
      ),
    ).toThrow('killed');
    expect(terms(db, 'search_vocab')).toEqual(expected.slice(0, 300));
    expect(vocabularyPending(db)).toBe(true);
    db.close();
    const human = await runInProcess(['mirror', 'status'], { env });
    expect(human.stdout).toMatch(/search index +building: its typo vocabulary/);

    const found = await runInProcess(['find', misspelt, '--json'], { env });
    expect(found.code, found.stderr).toBe(0);
    expect(found.stderr).toContain("Listing the search index's words for typo correction");
    expect(found.stderr).toContain(`"${misspelt}" matches nothing; searched for: ${correction}`);
    expect(JSON.parse(found.stdout).length).toBeGreaterThan(0);
    const after = openDb(path, { readonly: true });
    expect(terms(after, 'search_vocab')).toEqual(expected);
    expect(vocabularyPending(after)).toBe(false);
    after.close();
    const done = await runInProcess(['mirror', 'status', '--json'], { env });
    expect(JSON.parse(done.stdout).searchIndex).toEqual({ state: 'ready', pending: 0, vocabulary: 'ready' });
    const again = await runInProcess(['find', misspelt, '--json'], { env });
    expect(again.stderr).not.toContain('Listing');
    expect(again.stdout).toBe(found.stdout);
  }, 120_000);

  it('while its vocabulary is not listed, a search corrects typos through the index', () => {
    const dir = fixture('mtg-vocab-ro-', 10);
    const path = join(dir, 'default.db');
    const db = openDb(path);
    db.exec(`DELETE FROM search_vocab; INSERT INTO meta(key, value) VALUES ('${VOCAB_AFTER}', '')`);
    const word = terms(db, 'passages_terms').find((t) => /^[a-z]{6,}$/.test(t) && !t.endsWith('e'))!;
    const plan = planSearch(db, `${word}q`);
    expect(plan.corrections).toEqual([{ from: `${word}q`, to: word }]);
    db.close();
  }, 60_000);
});
