// A query planned against the index: each concept's weight (IDF) and, for a word that matches
// nothing, its nearest indexed word (typos).

import { segmentCjk } from '../shared/cjk.js';
import { type Db, openDb, type Statement } from './driver.js';
import { fromRowId, meetingPassages, type Passage, WINDOW_ENTRIES } from './passages.js';
import { type Concept, isStopWord, matchExpression, parseQuery, quote } from './search-query.js';
import type { SearchPlan } from './search-types.js';
import { editDistance, nearestWord, TOKENIZER } from './search-vocab.js';

export { editDistance, TOKENIZER };

/**
 * A private in-memory database with the index's tokenizer: what a text's indexed terms are
 * (tokens), and which of a few texts each concept matches (the rerank's entries). One per process
 * (scratch()): opening one and creating its tables cost more than a small search.
 */
export class Scratch {
  readonly db: Db = openDb(':memory:');
  private readonly put: Statement;
  private readonly terms: Statement<{ term: string }>;
  /** Texts tokenized before (a query's words are asked for by the plan, the first stage and the rerank). */
  private readonly known = new Map<string, string[]>();
  constructor() {
    // q is contentless: emptied by 'delete-all', which does not read its row back to tokenize it again.
    this.db.exec(
      `CREATE VIRTUAL TABLE q USING fts5(x, content = '', columnsize = 0, tokenize = '${TOKENIZER}');
       CREATE VIRTUAL TABLE qv USING fts5vocab(q, instance);
       CREATE VIRTUAL TABLE e USING fts5(text, who, content = '', columnsize = 0, tokenize = '${TOKENIZER}');`,
    );
    this.put = this.db.prepare('INSERT INTO q(rowid, x) VALUES (1, ?)');
    this.terms = this.db.prepare('SELECT term FROM qv ORDER BY offset');
  }
  /** The indexed terms of `text`, in order (stemmed, folded; CJK one character each). */
  tokens(text: string): string[] {
    let tokens = this.known.get(text);
    if (tokens === undefined) {
      // Emptied first, as before: a row left by a call that failed half-way cannot block the next.
      this.db.exec("INSERT INTO q(q) VALUES ('delete-all')");
      this.put.run(segmentCjk(text));
      tokens = this.terms.all().map((r) => String(r.term));
      // Bounded: a long-lived server is asked new words for its whole life.
      if (this.known.size >= 1000) this.known.clear();
      this.known.set(text, tokens);
    }
    return [...tokens];
  }
}

let shared: Scratch | undefined;

/**
 * The scratch table of entries `e` is filled between beginEntries and endEntries, in a transaction
 * rolled back at the end: FTS5 then never writes the rows it indexed out to its segments, and the
 * table is empty again without a 'delete-all'.
 */
export function beginEntries(s: Scratch): void {
  s.db.exec('BEGIN');
}

export function endEntries(s: Scratch): void {
  s.db.exec('ROLLBACK');
}

export function scratch(): Scratch {
  shared ??= new Scratch();
  return shared;
}

/**
 * What a search asks the index again and again, kept per connection while the mirror is unchanged
 * (the MCP server keeps one connection for its life): the documents holding each term (fts5vocab
 * counts them by reading the term's whole list: milliseconds for a common word) and the index's size.
 * Unchanged: the same data_version (another connection's commits) and total_changes() (this one's).
 */
interface IndexStats {
  version: string;
  docs: Map<string, number>;
  size?: number;
  /** A word that matches nothing: its nearest indexed word (undefined: none near enough). */
  nearest: Map<string, string | undefined>;
  /** Meetings' passages read for a search, the most recently used last, and how many passages they hold (meetingPassagesCache). */
  passages?: { meetings: Map<string, Passage[]>; held: number };
}
const statsOf = new WeakMap<Db, IndexStats>();

function indexStats(db: Db): IndexStats {
  const row = db
    .prepare<{ v: number; c: number }>(
      'SELECT data_version AS v, total_changes() AS c FROM pragma_data_version',
    )
    .get()!;
  const version = `${row.v}:${row.c}`;
  let stats = statsOf.get(db);
  if (stats?.version !== version) {
    stats = { version, docs: new Map(), nearest: new Map() };
    statsOf.set(db, stats);
  }
  return stats;
}

/** Documents holding `term` in the mirror's index (0 when none). */
export function docCount(db: Db, term: string): number {
  const { docs } = indexStats(db);
  let n = docs.get(term);
  if (n === undefined) {
    n = Number(
      db.prepare<{ doc: number }>('SELECT doc FROM passages_terms WHERE term = ?').get(term)?.doc ?? 0,
    );
    docs.set(term, n);
  }
  return n;
}

/** Documents holding a term that starts with `stem` (a prefix query's last word). */
function prefixDocCount(db: Db, stem: string): number {
  const { docs } = indexStats(db);
  const key = `${stem}*`;
  let n = docs.get(key);
  if (n === undefined) {
    n = Number(
      db
        .prepare<{ n: number }>(
          'SELECT coalesce(sum(doc), 0) AS n FROM passages_terms WHERE term >= ? AND term < ?',
        )
        .get(stem, `${stem}\u{10FFFF}`)!.n,
    );
    docs.set(key, n);
  }
  return n;
}

/** Passages the cache of meetingPassagesCache() holds at most (a few hundred meetings' worth). */
const CACHED_PASSAGES = 50_000;

/**
 * A meeting's passages as a search reads them (its JSON parsed, its texts cut), kept per connection
 * while the mirror is unchanged, the least recently used dropped first beyond `limit` passages: an
 * MCP server's searches read the same meetings again (a question and its follow-ups), and each read
 * parses a meeting's whole transcript (a third of a keyword search's CPU; new objects per call for
 * the collector). `read(meetingId)` when it is not kept.
 */
export function meetingPassagesCache(
  db: Db,
  meetingId: string,
  read: () => Passage[],
  limit = CACHED_PASSAGES,
): Passage[] {
  const stats = indexStats(db);
  stats.passages ??= { meetings: new Map(), held: 0 };
  const cache = stats.passages;
  let passages = cache.meetings.get(meetingId);
  if (passages) {
    cache.meetings.delete(meetingId);
    cache.meetings.set(meetingId, passages);
    return passages;
  }
  passages = read();
  cache.meetings.set(meetingId, passages);
  // A running count: summing every kept meeting's passages on each miss cost a walk of the cache.
  cache.held += passages.length;
  for (const [id, kept] of cache.meetings) {
    if (cache.held <= limit || id === meetingId) break;
    cache.meetings.delete(id);
    cache.held -= kept.length;
  }
  return passages;
}

export function indexSize(db: Db): number {
  const stats = indexStats(db);
  stats.size ??= Math.max(
    1,
    Number(db.prepare<{ n: number }>('SELECT count(*) AS n FROM passages_docsize').get()!.n),
  );
  return stats.size;
}

export const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** The documents of each word of a concept's alternatives (a prefix: its last word's, summed). */
function alternativeDocs(db: Db, scratch: Scratch, concept: Concept): number[][] {
  return concept.alternatives.map((alt) => {
    const prefix = alt.fts.endsWith('*');
    const tokens = scratch.tokens(alt.text);
    return tokens.map((t, i) =>
      prefix && i === tokens.length - 1 ? prefixDocCount(db, t) : docCount(db, t),
    );
  });
}

/** At most how many documents a concept matches (an alternative: its rarest word's). */
export function conceptDocs(db: Db, scratch: Scratch, concept: Concept): number {
  return alternativeDocs(db, scratch, concept).reduce(
    (sum, words) => sum + (words.length === 0 ? 0 : Math.min(...words)),
    0,
  );
}

/** How rare a concept is (its rarest alternative; a phrase: the sum of its words'). */
export function conceptWeight(db: Db, scratch: Scratch, concept: Concept, n: number): number {
  let best = 0;
  for (const words of alternativeDocs(db, scratch, concept))
    best = Math.max(
      best,
      words.reduce((w, df) => w + idf(n, Math.min(n, df)), 0),
    );
  return best || idf(n, n);
}

/**
 * The query planned against the mirror: parsed (a malformed query: UsageError), and unless `exact`,
 * each bare word that matches nothing and is not a stop word replaced by the nearest indexed word
 * (edit distance 1, or 2 for words of more than five letters), said in `corrections`.
 */
export function planSearch(db: Db, query: string, { exact = false } = {}): SearchPlan {
  const parsed = parseQuery(query);
  const corrections: SearchPlan['corrections'] = [];
  if (!exact) {
    for (const concept of parsed.concepts)
      for (const alt of concept.alternatives) {
        // A stop word kept (the query has nothing else: "AND OR NOT") is searched as typed: the
        // nearest indexed word to "and" ("aed") is not what was asked.
        if (!alt.word || /\p{N}/u.test(alt.text) || isStopWord(alt.text)) continue;
        const [term] = scratch().tokens(alt.text);
        if (term === undefined || docCount(db, term) > 0) continue;
        const known = indexStats(db).nearest;
        if (!known.has(alt.text))
          known.set(
            alt.text,
            nearestWord(
              db,
              alt.text,
              term,
              (t) => docCount(db, t),
              (t, forms) => wordsOfTerm(db, t, forms),
            ),
          );
        const nearest = known.get(alt.text);
        if (nearest === undefined) continue;
        corrections.push({ from: alt.text, to: nearest });
        alt.text = nearest;
        alt.fts = quote(nearest, false);
      }
  }
  return { parsed, match: matchExpression(parsed), corrections };
}

/**
 * A meeting's passages through meetingPassagesCache(): its JSON and transcript read and parsed only
 * when they are not kept. JSON.parse, not fromJsonText: only the passages' texts are used, and those
 * are strings either way (fromJsonText differs only in integers beyond 2^53), without its scan for them.
 */
export function loadMeetingPassages(db: Db, meetingId: string): Passage[] {
  return meetingPassagesCache(db, meetingId, () => {
    const r = db
      .prepare<{ json: string; transcript: string | null }>(
        'SELECT m.json, t.json AS transcript FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id WHERE m.id = ?',
      )
      .get(meetingId);
    return r
      ? meetingPassages(
          JSON.parse(r.json) as Record<string, unknown>,
          r.transcript === null ? undefined : JSON.parse(r.transcript),
        )
      : [];
  });
}

/** Rows of the index whose text wordsOfTerm reads for a term's words. */
const ROWS_READ = 3;

/**
 * The words of the mirror's text that `term` (an index term: a stem) is indexed for, as written
 * (lowercased), the most frequent first: read back from a few rows holding it. `forms`: words that
 * may stem to it, to ask the index with (a query is stemmed again, and a stem is not always its own
 * stem: "decis" is searched as "deci"). None when no form stems to it.
 */
function wordsOfTerm(db: Db, term: string, forms: readonly string[]): string[] {
  const s = scratch();
  const stemsTo = (w: string) => {
    const t = s.tokens(w);
    return t.length === 1 && t[0] === term;
  };
  const asked = [term, ...forms].find(stemsTo);
  if (asked === undefined) return [];
  const rows = db
    .prepare<{ rowid: number }>('SELECT rowid FROM passages WHERE passages MATCH ? LIMIT ?')
    .all(quote(asked, false), ROWS_READ);
  const meetingAt = db.prepare<{ id: string }>(
    'SELECT id FROM meetings WHERE passage_base = ? AND deleted_at IS NULL',
  );
  const counts = new Map<string, number>();
  for (const { rowid } of rows) {
    const { base, kind, first } = fromRowId(Number(rowid));
    const m = meetingAt.get(base);
    if (!m) continue;
    const passages = loadMeetingPassages(db, String(m.id));
    const count = kind === 'transcript' ? WINDOW_ENTRIES : 1;
    for (const p of passages.slice(first, first + count))
      for (const text of [p.text, p.speaker ?? ''])
        for (const w of text.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [])
          counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const words: [string, number][] = [];
  // A stem keeps its word's beginning (porter changes at most the last three letters it keeps).
  const start = term.slice(0, Math.max(1, term.length - 3));
  for (const [w, n] of counts)
    if (w.normalize('NFD').replace(/\p{M}/gu, '').startsWith(start) && stemsTo(w)) words.push([w, n]);
  return words.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
}
