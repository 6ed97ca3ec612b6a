// A query planned against the index: each concept's weight (IDF) and, for a word that matches
// nothing, its nearest indexed word (typos).

import { segmentCjk } from '../shared/cjk.js';
import { type Db, openDb, type Statement } from './driver.js';
import { type Concept, matchExpression, parseQuery, quote } from './search-query.js';
import type { SearchPlan } from './search-types.js';

export const TOKENIZER = 'porter unicode61 remove_diacritics 2';

/**
 * A private in-memory database with the index's tokenizer: what a text's indexed terms are
 * (tokens), and which of a few texts each concept matches (the rerank's entries). Closed by the caller.
 */
export class Scratch {
  readonly db: Db = openDb(':memory:');
  private readonly put: Statement;
  private readonly terms: Statement<{ term: string }>;
  constructor() {
    this.db.exec(
      `CREATE VIRTUAL TABLE q USING fts5(x, tokenize = '${TOKENIZER}');
       CREATE VIRTUAL TABLE qv USING fts5vocab(q, instance);
       CREATE VIRTUAL TABLE e USING fts5(text, who, tokenize = '${TOKENIZER}');`,
    );
    this.put = this.db.prepare('INSERT INTO q(rowid, x) VALUES (1, ?)');
    this.terms = this.db.prepare('SELECT term FROM qv ORDER BY offset');
  }
  /** The indexed terms of `text`, in order (stemmed, folded; CJK one character each). */
  tokens(text: string): string[] {
    this.db.exec('DELETE FROM q');
    this.put.run(segmentCjk(text));
    return this.terms.all().map((r) => String(r.term));
  }
  close(): void {
    this.db.close();
  }
}

/** Documents holding `term` in the mirror's index (0 when none). */
export function docCount(db: Db, term: string): number {
  return Number(
    db.prepare<{ doc: number }>('SELECT doc FROM passages_terms WHERE term = ?').get(term)?.doc ?? 0,
  );
}

export function indexSize(db: Db): number {
  return Math.max(
    1,
    Number(db.prepare<{ n: number }>('SELECT count(*) AS n FROM passages_docsize').get()!.n),
  );
}

export const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** How rare a concept is (its rarest alternative; a phrase: the sum of its words'). */
export function conceptWeight(db: Db, scratch: Scratch, concept: Concept, n: number): number {
  let best = 0;
  for (const alt of concept.alternatives) {
    const prefix = alt.fts.endsWith('*');
    const tokens = scratch.tokens(alt.text);
    let w = 0;
    tokens.forEach((t, i) => {
      let df: number;
      if (prefix && i === tokens.length - 1)
        df = Number(
          db
            .prepare<{ n: number }>(
              'SELECT coalesce(sum(doc), 0) AS n FROM passages_terms WHERE term >= ? AND term < ?',
            )
            .get(t, `${t}\u{10FFFF}`)!.n,
        );
      else df = docCount(db, t);
      w += idf(n, Math.min(n, df));
    });
    best = Math.max(best, w);
  }
  return best || idf(n, n);
}

/**
 * The query planned against the mirror: parsed (a malformed query: UsageError), and unless `exact`,
 * each bare word that matches nothing replaced by the nearest indexed word (edit distance 1, or 2
 * for words of more than five letters), said in `corrections`.
 */
export function planSearch(db: Db, query: string, { exact = false } = {}): SearchPlan {
  const parsed = parseQuery(query);
  const corrections: SearchPlan['corrections'] = [];
  if (!exact) {
    const scratch = new Scratch();
    try {
      for (const concept of parsed.concepts)
        for (const alt of concept.alternatives) {
          if (!alt.word || /\p{N}/u.test(alt.text)) continue;
          const [term] = scratch.tokens(alt.text);
          if (term === undefined || docCount(db, term) > 0) continue;
          const nearest = nearestWord(db, alt.text, term);
          if (nearest === undefined) continue;
          corrections.push({ from: alt.text, to: nearest });
          alt.text = nearest;
          alt.fts = quote(nearest, false);
        }
    } finally {
      scratch.close();
    }
  }
  return { parsed, match: matchExpression(parsed), corrections };
}

/** Indexed terms nearestWord compares at most (those of the word's first letter, by frequency). */
const TYPO_CANDIDATES = 20_000;

/**
 * The indexed word nearest to `word` (which matches nothing; `stem` is its indexed form): among the
 * terms of the index with the same first letter, the one within the edit distance allowed whose
 * spelled form (the stem with a common ending: "price" → "pricing") is nearest, the most frequent
 * on a tie. Undefined when none is near enough.
 */
function nearestWord(db: Db, word: string, stem: string): string | undefined {
  const target = word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const max = target.length > 5 ? 2 : 1;
  if (target.length < 3) return undefined;
  const first = stem[0]!;
  const rows = db
    .prepare<{ term: string; doc: number }>(
      'SELECT term, doc FROM passages_terms WHERE term >= ? AND term < ? LIMIT ?',
    )
    .all(first, String.fromCodePoint(first.codePointAt(0)! + 1), TYPO_CANDIDATES);
  let best: { form: string; d: number; doc: number } | undefined;
  for (const { term, doc } of rows) {
    const t = String(term);
    if (Math.abs(t.length - target.length) > max + 3) continue;
    for (const form of spelledForms(t)) {
      const d = editDistance(target, form, max);
      if (d > max) continue;
      if (!best || d < best.d || (d === best.d && Number(doc) > best.doc))
        best = { form, d, doc: Number(doc) };
    }
  }
  return best?.form;
}

/** Words a porter stem may stand for: itself, and with the endings that stemming takes off. */
function spelledForms(stem: string): string[] {
  const forms = [
    stem,
    `${stem}s`,
    `${stem}ed`,
    `${stem}ing`,
    `${stem}e`,
    `${stem}es`,
    `${stem}er`,
    `${stem}ion`,
  ];
  if (stem.endsWith('e')) {
    const base = stem.slice(0, -1);
    forms.push(`${base}ing`, `${base}ed`, `${base}ion`);
  }
  if (stem.endsWith('i')) forms.push(`${stem.slice(0, -1)}y`, `${stem.slice(0, -1)}ies`);
  return forms;
}

/** Levenshtein distance with transpositions, computed up to `max` (anything beyond: max + 1). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}
