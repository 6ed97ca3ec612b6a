// The typo lookup's vocabulary (schema 7): `search_vocab`, every term of the search index once, in
// a plain table. A word that matches nothing is compared with the indexed terms of its first
// letter; listing them through fts5vocab (`passages_terms`) made SQLite count the documents of each
// (it reads a term's whole document list: the common words of that letter cost tens of ms), in
// every new process. The table lists them for a B-tree range read.
//
// Kept current by the index's writer (passages.ts): the terms of every row it writes are added in
// the same transaction. A term whose rows are all deleted stays listed (the index does not say when
// a term's last row goes); the lookup asks the index for the documents of the words it would
// choose, and skips a term that has none. A mirror of schema 6 or older gets the table empty and a
// `meta` key saying where the copy of the index's terms stands (VOCAB_AFTER); the first search
// copies them in batches (buildVocabulary: offline, resumable), and until then the lookup lists the
// terms through fts5vocab as before.

import { type Db, openDb, type Statement } from './driver.js';
import { readMeta, writeMeta } from './meta.js';
import { type Candidate, editDistance, withinDistance } from './search-distance.js';

export { editDistance };

/** The index's tokenizer (the search index's and the query's: search-plan.ts). */
export const TOKENIZER = 'porter unicode61 remove_diacritics 2';

/**
 * `meta` key: while present, the vocabulary is being copied from the index, and every term up to
 * its value (in the index's order) is copied ('' : none yet).
 */
export const VOCAB_AFTER = 'search_vocab_after';

/**
 * V7: the table, empty, and the copy of the index's terms pending (buildVocabulary) when the index
 * has rows (an index emptied by V4's rebuild is refilled by the writer, which lists its terms). IF
 * NOT EXISTS and emptied: a file taken back to an older user_version by hand (as tests make the
 * mirrors of older releases) may have it already.
 */
export const V7 = `
CREATE TABLE IF NOT EXISTS search_vocab (term TEXT PRIMARY KEY) WITHOUT ROWID;
DELETE FROM search_vocab;
DELETE FROM meta WHERE key = '${VOCAB_AFTER}';
INSERT INTO meta(key, value) SELECT '${VOCAB_AFTER}', ''
  WHERE EXISTS (SELECT 1 FROM meetings WHERE passage_base IS NOT NULL);
`;

/** True while the vocabulary is not complete (a mirror upgraded to schema 7, not searched since). */
export function vocabularyPending(db: Db): boolean {
  return readMeta(db, VOCAB_AFTER) !== undefined;
}

/** Terms copied per transaction while the vocabulary is built: a kill loses at most one batch. */
const VOCAB_BATCH = 2000;

/**
 * Copy the index's terms into the vocabulary, in batches in the index's order, each with the
 * position it reached (VOCAB_AFTER): killed, the next call resumes there. `progress(terms)` after
 * each batch (`batch`: terms per transaction, smaller in tests). Returns the number of terms copied (0: nothing was pending).
 */
export function buildVocabulary(db: Db, progress?: (terms: number) => void, batch = VOCAB_BATCH): number {
  if (!vocabularyPending(db)) return 0;
  const next = db.prepare<{ term: string }>(
    'SELECT term FROM passages_terms WHERE term > ? ORDER BY term LIMIT ?',
  );
  const add = db.prepare('INSERT OR IGNORE INTO search_vocab(term) SELECT value FROM json_each(?)');
  let copied = 0;
  // Bounded: every batch but the last moves the position forward by `batch` terms.
  for (let round = 0; round < 1e7; round++) {
    const done = db.transaction(() => {
      const after = readMeta(db, VOCAB_AFTER);
      if (after === undefined) return true;
      const terms = next.all(after, batch).map((r) => String(r.term));
      add.run(JSON.stringify(terms));
      copied += terms.length;
      if (terms.length < batch) {
        db.prepare('DELETE FROM meta WHERE key = ?').run(VOCAB_AFTER);
        return true;
      }
      writeMeta(db, VOCAB_AFTER, terms[terms.length - 1]!);
      return false;
    });
    progress?.(copied);
    if (done) break;
  }
  return copied;
}

/**
 * A private in-memory index with the search index's tokenizer, for the writer: the distinct terms
 * of a few texts (a contentless table and its fts5vocab, emptied after each use).
 */
class TermReader {
  private readonly db: Db = openDb(':memory:');
  private readonly put: Statement;
  private readonly list: Statement<{ terms: string | null }>;
  constructor() {
    this.db.exec(
      `CREATE VIRTUAL TABLE t USING fts5(x, content = '', tokenize = '${TOKENIZER}');
       CREATE VIRTUAL TABLE tv USING fts5vocab(t, row);`,
    );
    this.put = this.db.prepare('INSERT INTO t(x) VALUES (?)');
    this.list = this.db.prepare('SELECT group_concat(term, char(10)) AS terms FROM tv');
  }
  terms(text: string): string[] {
    this.put.run(text);
    const terms = this.list.get()?.terms ?? null;
    this.db.exec("INSERT INTO t(t) VALUES ('delete-all')");
    return terms === null ? [] : terms.split('\n');
  }
}

let reader: TermReader | undefined;

export interface VocabularyWriter {
  /** Add the terms of texts written to the index (each as the index gets it: segmentCjk'd). */
  add(texts: readonly string[]): void;
}

/**
 * The vocabulary's writer for the index's writer (which passes each of a meeting's texts once, not
 * each window: passages.ts). Nothing is remembered from one call to the next: a call's rows may be
 * rolled back with its transaction.
 */
export function vocabularyWriter(db: Db): VocabularyWriter {
  const add = db.prepare('INSERT OR IGNORE INTO search_vocab(term) SELECT value FROM json_each(?)');
  return {
    add(texts) {
      // Tokenized together, once (cheaper than splitting them into distinct words first).
      const text = texts.join('\n');
      if (text.trim() === '') return;
      reader ??= new TermReader();
      const terms = reader.terms(text);
      if (terms.length > 0) add.run(JSON.stringify(terms));
    },
  };
}

/** Indexed terms nearestWord compares at most (those of the word's first letter, in order). */
const TYPO_CANDIDATES = 20_000;

/** The indexed terms of `first`'s letter, in order (at most TYPO_CANDIDATES). */
function termsOfLetter(db: Db, first: string): string[] {
  const end = String.fromCodePoint(first.codePointAt(0)! + 1);
  // The vocabulary when it is complete; else the index's terms through fts5vocab (slow: see top).
  const table = vocabularyPending(db) ? 'passages_terms' : 'search_vocab';
  // One row: a string per term would cost more than reading the terms.
  const row = db
    .prepare<{ terms: string | null }>(
      `SELECT group_concat(term, char(10)) AS terms FROM (SELECT term FROM ${table} WHERE term >= ? AND term < ? ORDER BY term LIMIT ?)`,
    )
    .get(first, end, TYPO_CANDIDATES);
  return row?.terms ? row.terms.split('\n') : [];
}

/**
 * The indexed word nearest to `word` (which matches nothing; `stem` is its indexed form): among the
 * terms of the index with the same first letter, the one within the edit distance allowed (1, or 2
 * for words of more than five letters) whose spelled form (the stem with a common ending: "price" →
 * "pricing") is nearest, the most frequent on a tie (`docs`: a term's documents in the index; a
 * term with none, left in the vocabulary by a deletion, is never chosen). Undefined when none is
 * near enough.
 *
 * With `words` (the words of the mirror's text a term is indexed for, as written), the answer is
 * the chosen term's word nearest to `word`: a spelled form may be no word at all ("decise", for
 * "decide", from the stem "decis" of "decisions"), and a term is a stem ("pric"), neither a word a
 * user knows; the term searched for is the same.
 */
export function nearestWord(
  db: Db,
  word: string,
  stem: string,
  docs: (term: string) => number,
  words?: (term: string, forms: readonly string[]) => readonly string[],
): string | undefined {
  const target = fold(word);
  const max = target.length > 5 ? 2 : 1;
  if (target.length < 3 || stem === '') return undefined;
  const found = withinDistance(target, termsOfLetter(db, stem[0]!), max);
  if (words) return nearestMirrorWord(target, found, docs, words);
  for (let d = 0; d <= max; d++) {
    let best: { form: string; doc: number } | undefined;
    for (const c of found) {
      if (c.d !== d) continue;
      const doc = docs(c.term);
      if (doc > 0 && (!best || doc > best.doc)) best = { form: c.form, doc };
    }
    if (best) return best.form;
  }
  return undefined;
}

/** A word as the index compares it: accents and case folded. */
const fold = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Candidate terms nearestMirrorWord tries at most (in the order it would choose them). */
const TERMS_READ = 6;

/**
 * The term nearestWord chooses without `words` (the nearest by its spelled forms, the most
 * frequent on a tie), told by the mirror's word for it nearest to `target` (the most frequent on a
 * tie): "decide" is one edit from "decise", the stem "decis" with an ending, and the search finds
 * what "decisions" does. The next term when the mirror's text gives none for it.
 */
function nearestMirrorWord(
  target: string,
  found: readonly Candidate[],
  docs: (term: string) => number,
  words: (term: string, forms: readonly string[]) => readonly string[],
): string | undefined {
  const terms = new Map<string, { d: number; doc: number; forms: string[] }>();
  for (const c of found) {
    const t = terms.get(c.term);
    if (t) {
      t.d = Math.min(t.d, c.d);
      t.forms.push(c.form);
    } else terms.set(c.term, { d: c.d, doc: docs(c.term), forms: [c.form] });
  }
  // In nearestWord's order: by distance, then documents, then the first found.
  const ranked = [...terms.entries()]
    .map(([term, t], i) => ({ term, ...t, i }))
    .filter((t) => t.doc > 0)
    .sort((a, b) => a.d - b.d || b.doc - a.doc || a.i - b.i)
    .slice(0, TERMS_READ);
  for (const t of ranked) {
    let best: { word: string; d: number } | undefined;
    for (const w of words(t.term, t.forms)) {
      const d = editDistance(target, fold(w), Number.MAX_SAFE_INTEGER);
      if (!best || d < best.d) best = { word: w, d };
    }
    if (best) return best.word;
  }
  return undefined;
}
