// Full-text search of the mirror (`mtg find`, the MCP server's search, offline `meetings search`):
// the user's query turned into a safe FTS5 MATCH expression, and ranked passages with snippets.
//
// The query language: words ("remote control"), or a question in plain words; a passage need not
// hold every word (the words are ORed), but ranking rewards the passages holding all of them, the
// rarer ones and the words close together (rerank below), so keywords keep their precision.
// "quoted phrases"; prefix*; OR between two terms (alternatives: one concept); -word or -"phrase"
// excludes. Stop words and question words carry no weight; "Dana's" is Dana. Every word reaches
// FTS5 as a quoted string, so nothing the user types can be read as FTS5 syntax (column filters,
// NEAR, ^, parentheses) or break the query.

import { UsageError } from '../api/errors.js';
import { hasCjk, segmentCjk } from './cjk.js';
import { type Db, openDb, type Statement } from './driver.js';
import {
  fromRowId,
  KIND_CODES,
  meetingPassages,
  type Passage,
  ROWID_MEETING_SHIFT,
  WINDOW_ENTRIES,
} from './passages.js';
import { clampSnippet, freeSeparator, plainSnippet, SNIPPET_MAX, snippetMaker } from './snippets.js';

export {
  clampSnippet,
  freeSeparator,
  MATCH_END,
  MATCH_START,
  plainSnippet,
  SNIPPET_MAX,
} from './snippets.js';

export const PASSAGE_KINDS = ['name', 'notes', 'transcript', 'action-items', 'attendees'] as const;
export type PassageKind = (typeof PASSAGE_KINDS)[number];

/** One alternative of a concept: an FTS5 string (a quoted phrase, maybe with a trailing *). */
export interface Alternative {
  fts: string;
  /** What the user typed (the word, or the phrase's text), lowercased. */
  text: string;
  /** A bare word (not a phrase, not a prefix): typo correction may replace it. */
  word: boolean;
}

/** A concept of the query: one word or "phrase", or several joined by OR. */
export interface Concept {
  alternatives: Alternative[];
}

export interface ParsedQuery {
  concepts: Concept[];
  excluded: string[];
}

const WORDISH = /[\p{L}\p{N}]/u;

/** One FTS5 string; CJK characters as the index has them, one token each (a run: a phrase). */
function quote(text: string, prefix: boolean): string {
  const tokens = segmentCjk(text).trim().replace(/\s+/g, ' ');
  return `"${tokens.replace(/"/g, '""')}"${prefix ? '*' : ''}`;
}

/**
 * Words that carry no weight in a query of several words: English stop words, and the words that
 * frame a question ("what did … say about …", "summarize the discussion of …"). A query of only
 * such words keeps them (`find the` still finds "the").
 */
const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are aren as at be because been before being below ' +
    'between both but by can cannot could couldn did didn do does doesn doing don down during each few for ' +
    'from further had hadn has hasn have haven having he her here hers herself him himself his how i if in ' +
    'into is isn it its itself just let me more most mustn my myself no nor not of off on once only or other ' +
    'ought our ours ourselves out over own same shan she should shouldn so some such than that the their ' +
    'theirs them themselves then there these they this those through to too under until up very was wasn we ' +
    'were weren what when where which while who whom why will with won would wouldn you your yours yourself ' +
    'yourselves s t ll ve re d m also get got us like well yeah okay ok oh um uh hmm ' +
    // question framing
    'say said says tell told think thought thinks talk talked talking discuss discussed discussing ' +
    'discussion discussions mention mentioned mentions summarize summarise summary ask asked opinion ' +
    'opinions view views according whole meeting meetings group anything something everything'
  ).split(' '),
);

/** A word as the query means it: a possessive ("Dana's", "Dana’s") is its name. */
function bareWord(word: string): string {
  return word.replace(/['’]s$/iu, '');
}

/**
 * The user's query as concepts and exclusions. Malformed (empty, an unbalanced quote, only
 * exclusions, a dangling OR): a UsageError with a one-line reason.
 */
export function parseQuery(query: string): ParsedQuery {
  type Token = { kind: 'term'; alt: Alternative; negated: boolean } | { kind: 'or' };
  const tokens: Token[] = [];
  let i = 0;
  const s = query;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    let negated = false;
    let start = i;
    if (c === '-' && i + 1 < s.length && !/\s/.test(s[i + 1]!)) {
      negated = true;
      start = ++i;
    }
    if (s[start] === '"') {
      const end = s.indexOf('"', start + 1);
      if (end < 0) throw new UsageError(`Unbalanced quote in the query: ${JSON.stringify(query)}`);
      const phrase = s.slice(start + 1, end);
      let next = end + 1;
      const prefix = s[next] === '*';
      if (prefix) next++;
      i = next;
      if (!WORDISH.test(phrase)) continue; // "" or punctuation only: nothing FTS5 could match
      const text = phrase.trim().toLowerCase();
      tokens.push({ kind: 'term', alt: { fts: quote(phrase.trim(), prefix), text, word: false }, negated });
      continue;
    }
    let end = start;
    while (end < s.length && !/\s/.test(s[end]!) && s[end] !== '"') end++;
    let word = s.slice(start, end);
    i = end;
    if (!negated && word === 'OR') {
      tokens.push({ kind: 'or' });
      continue;
    }
    const prefix = word.endsWith('*');
    word = word.replace(/\*+$/, '');
    if (!prefix) word = bareWord(word.replace(/[?!.,;:]+$/u, ''));
    if (!WORDISH.test(word)) continue; // "-", "&&", "*": no word in it
    const text = word.toLowerCase();
    // A word of one token (no inner punctuation or CJK run): typo correction may replace it.
    const single = /^[\p{L}\p{N}]+$/u.test(word) && !hasCjk(word) && !prefix;
    tokens.push({ kind: 'term', alt: { fts: quote(word, prefix), text, word: single }, negated });
  }

  const concepts: Concept[] = [];
  const excluded: string[] = [];
  let pendingOr = false;
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k]!;
    if (token.kind === 'or') {
      const before = tokens[k - 1];
      const after = tokens[k + 1];
      if (before?.kind !== 'term' || before.negated || !after || after.kind !== 'term' || after.negated) {
        throw new UsageError('OR needs a word or "phrase" on each side (and cannot join an -exclusion)');
      }
      pendingOr = true;
      continue;
    }
    if (token.negated) excluded.push(token.alt.fts);
    else if (pendingOr) concepts[concepts.length - 1]!.alternatives.push(token.alt);
    else concepts.push({ alternatives: [token.alt] });
    pendingOr = false;
  }
  if (concepts.length === 0) {
    if (excluded.length > 0)
      throw new UsageError('The query only excludes (-word): give at least one word to find');
    throw new UsageError('The query has no word to search for');
  }
  // Stop and question words go, unless nothing else is left; a repeated concept counts once.
  const isStop = (c: Concept) =>
    c.alternatives.length === 1 && c.alternatives[0]!.word && STOP_WORDS.has(c.alternatives[0]!.text);
  const content = concepts.filter((c) => !isStop(c));
  const seen = new Set<string>();
  const kept = (content.length > 0 ? content : concepts).filter((c) => {
    const key = c.alternatives.map((a) => a.fts).join(' OR ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { concepts: kept, excluded };
}

/** A concept as FTS5 syntax. */
export function conceptExpression(concept: Concept): string {
  const alts = concept.alternatives.map((a) => a.fts);
  return alts.length === 1 ? alts[0]! : `(${alts.join(' OR ')})`;
}

/** The passages holding any concept of the query and none of its exclusions, as FTS5 syntax. */
export function matchExpression(parsed: ParsedQuery): string {
  const positive = parsed.concepts.map(conceptExpression).join(' OR ');
  if (parsed.excluded.length === 0) return positive;
  return parsed.excluded.reduce((expr, term) => `${expr} NOT ${term}`, `(${positive})`);
}

/**
 * The user's query as an FTS5 MATCH expression (no typo correction). Malformed: a UsageError.
 */
export function toMatchExpression(query: string): string {
  return matchExpression(parseQuery(query));
}

export interface FindOptions {
  kinds?: readonly PassageKind[];
  /** ISO date-times (inclusive lower, exclusive upper bound on the meeting's createdAt). */
  since?: string;
  until?: string;
  limit?: number;
}

export interface PassageHit {
  meetingId: string;
  meetingName: string | null;
  createdAt: string | null;
  in: PassageKind;
  /** The entry of the passage that matches best (transcript): its speaker and timestamp. */
  speaker: string | null;
  timestamp: number | null;
  /** The passage around the matches, each match between MATCH_START and MATCH_END. */
  snippet: string;
  /** 1 for the best hit. */
  rank: number;
  /** The words of the passage that matched (lowercased, after stemming and typo correction). */
  matched: string[];
}

/** A meeting with its best passages (`--by meeting`): the first passage's fields, and up to three. */
export interface MeetingHit extends PassageHit {
  passages: Omit<PassageHit, 'meetingId' | 'meetingName' | 'createdAt' | 'rank'>[];
}

/** A query ready to run: its concepts (typos corrected), its MATCH expression, and what was corrected. */
export interface SearchPlan {
  parsed: ParsedQuery;
  match: string;
  /** Words that matched nothing, replaced by the nearest indexed word. */
  corrections: { from: string; to: string }[];
}

const TOKENIZER = 'porter unicode61 remove_diacritics 2';

/**
 * A private in-memory database with the index's tokenizer: what a text's indexed terms are
 * (tokens), and which of a few texts each concept matches (the rerank's entries). Closed by the caller.
 */
class Scratch {
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
function docCount(db: Db, term: string): number {
  return Number(
    db.prepare<{ doc: number }>('SELECT doc FROM passages_terms WHERE term = ?').get(term)?.doc ?? 0,
  );
}

function indexSize(db: Db): number {
  return Math.max(
    1,
    Number(db.prepare<{ n: number }>('SELECT count(*) AS n FROM passages_docsize').get()!.n),
  );
}

const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** How rare a concept is (its rarest alternative; a phrase: the sum of its words'). */
function conceptWeight(db: Db, scratch: Scratch, concept: Concept, n: number): number {
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

/** Ranking knobs (tuned on QMSum's train split: bench/README.md; a bench may set them). */
export const TUNE = {
  /** bm25 weights of the text and the speakers columns. */
  text: 1,
  speakers: 2,
  /** Windows ranked by bm25 and then reranked (and aggregated into their meetings' scores). */
  candidates: 300,
  /** Of those, the best (after their meetings' scores) read and reranked. */
  reranked: 40,
  /** A meeting's score: its best windows (not overlapping), each counting decay times the one before. */
  meetingWindows: 3,
  decay: 0.5,
  /** Hits of one meeting before the first ones of every other (0: no cap). */
  perMeeting: 0,
  /** score = bm25 × (floor + coverage)^power × (1 + near × proximity) + meeting × meetingScore. */
  floor: 0.25,
  power: 2,
  near: 1,
  meeting: 0.25,
};

interface Window {
  rowid: number;
  bm25: number;
  meetingId: string;
  meetingName: string | null;
  createdAt: string | null;
  kind: PassageKind;
  first: number;
  count: number;
  base: number;
  score: number;
  /** The index (in meetingPassages) of the entry that matches best. */
  best: number;
  /** Alternatives ("remote", "dana") matched only as a speaker of the window. */
  speakerMatches: string[];
}

/** Ranked windows of live meetings, best first, with the passages of their meetings. */
function rankWindows(
  db: Db,
  plan: SearchPlan,
  options: FindOptions,
  wanted: number | undefined,
): { windows: Window[]; passagesOf: Map<string, Passage[]>; meetingScore: Map<string, number> } {
  const where = ['passages MATCH ?'];
  const params: (string | number)[] = [plan.match];
  // The dates pick meetings, not passages: a passage is kept by its rowid's block (rowid >> 20 is
  // its meeting's passage_base, passages.ts), without joining each match to its meeting.
  const dates: string[] = [];
  if (options.since) {
    dates.push('julianday(m.created_at) >= julianday(?)');
    params.push(options.since);
  }
  if (options.until) {
    dates.push('julianday(m.created_at) < julianday(?)');
    params.push(options.until);
  }
  if (dates.length > 0)
    where.push(
      `(p.rowid >> ${ROWID_MEETING_SHIFT}) IN (SELECT m.passage_base FROM meetings AS m WHERE ${dates.join(' AND ')})`,
    );
  if (options.kinds?.length) {
    const codes = [...new Set(options.kinds.map((k) => KIND_CODES.indexOf(k)))];
    where.push(`((p.rowid >> ${ROWID_MEETING_SHIFT - 3}) & 7) IN (${codes.join(', ')})`);
  }
  const sql =
    `SELECT p.rowid AS rowid, bm25(passages, ${TUNE.text}, ${TUNE.speakers}) AS score FROM passages AS p` +
    ` WHERE ${where.join(' AND ')} ORDER BY score, p.rowid` +
    (wanted !== undefined ? ` LIMIT ${TUNE.candidates + 3 * wanted}` : '');
  const ranked = db.prepare<{ rowid: number; score: number }>(sql).all(...params);
  const meetingOf = db.prepare<{ id: string; name: string | null; createdAt: string | null }>(
    'SELECT id, name, created_at AS createdAt FROM meetings WHERE passage_base = ? AND deleted_at IS NULL',
  );
  const meetings = new Map<
    number,
    { id: string; name: string | null; createdAt: string | null } | undefined
  >();
  const windows: Window[] = [];
  for (const { rowid, score } of ranked) {
    const { base, kind, first } = fromRowId(Number(rowid));
    if (!meetings.has(base)) meetings.set(base, meetingOf.get(base));
    const meeting = meetings.get(base);
    if (!meeting) continue; // a tombstoned meeting's passage (sync removes them; never shown)
    windows.push({
      rowid: Number(rowid),
      bm25: -Number(score),
      meetingId: String(meeting.id),
      meetingName: meeting.name ?? null,
      createdAt: meeting.createdAt ?? null,
      kind,
      first,
      count: kind === 'transcript' ? WINDOW_ENTRIES : 1,
      base,
      score: -Number(score),
      best: first,
      speakerMatches: [],
    });
  }
  // The passages of the meetings of the windows reranked (each meeting's JSON read and parsed once).
  const passagesOf = new Map<string, Passage[]>();
  const source = db.prepare<{ json: string; transcript: string | null }>(
    'SELECT m.json, t.json AS transcript FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id WHERE m.id = ?',
  );
  const load = (meetingId: string) => {
    let passages = passagesOf.get(meetingId);
    if (passages) return passages;
    const r = source.get(meetingId);
    // JSON.parse, not fromJsonText: only the passages' texts are used here, and those are strings
    // either way (fromJsonText differs only in integers beyond 2^53), without its scan for them.
    passages = r
      ? meetingPassages(
          JSON.parse(r.json) as Record<string, unknown>,
          r.transcript === null ? undefined : JSON.parse(r.transcript),
        )
      : [];
    passagesOf.set(meetingId, passages);
    return passages;
  };
  // Two stages. The pool (the first windows by bm25) gives each meeting its score (the sum of its
  // best windows): a question's meeting has many windows about it. Then the best of the pool are
  // read (texts) and scored on how much of the query they hold and how close together.
  const pool = windows.slice(0, TUNE.candidates);
  const meetingScore = aggregate(pool);
  pool.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  const head = pool.slice(0, TUNE.reranked);
  for (const w of head) w.count = Math.max(1, Math.min(w.count, load(w.meetingId).length - w.first));
  rerank(db, plan, head, passagesOf);
  head.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  // Non-maximum suppression: a window overlapping a better one of its meeting is the same place.
  const kept: Window[] = [];
  const deferred: Window[] = [];
  const taken = new Map<string, [number, number][]>();
  for (const w of [...head, ...pool.slice(TUNE.reranked), ...windows.slice(TUNE.candidates)]) {
    const spans = taken.get(w.meetingId) ?? [];
    if (spans.some(([f, c]) => w.first < f + c && f < w.first + w.count)) continue;
    spans.push([w.first, w.count]);
    taken.set(w.meetingId, spans);
    // At most perMeeting hits of a meeting before every other meeting's first ones.
    if (TUNE.perMeeting > 0 && spans.length > TUNE.perMeeting) deferred.push(w);
    else kept.push(w);
  }
  kept.push(...deferred);
  for (const w of kept.slice(0, wanted)) {
    const length = load(w.meetingId).length;
    w.count = Math.max(1, Math.min(w.count, length - w.first));
  }
  return { windows: kept, passagesOf, meetingScore };
}

/**
 * Each window's first score (in place): its bm25 (of the best), plus its meeting's share of the
 * best meeting's score (a meeting's score: its three best windows that do not overlap, halving).
 */
function aggregate(windows: Window[]): Map<string, number> {
  const meetingScore = new Map<string, number>();
  if (windows.length === 0) return meetingScore;
  const byMeeting = new Map<string, Window[]>();
  for (const w of windows) {
    const list = byMeeting.get(w.meetingId);
    if (list) list.push(w);
    else byMeeting.set(w.meetingId, [w]);
  }
  let top = 0;
  for (const [id, list] of byMeeting) {
    const chosen: Window[] = [];
    for (const w of [...list].sort((a, b) => b.bm25 - a.bm25)) {
      if (chosen.length === TUNE.meetingWindows) break;
      if (chosen.some((c) => w.first < c.first + c.count && c.first < w.first + w.count)) continue;
      chosen.push(w);
    }
    const score = chosen.reduce((sum, w, i) => sum + w.bm25 * TUNE.decay ** i, 0);
    meetingScore.set(id, score);
    top = Math.max(top, score);
  }
  const best = Math.max(...windows.map((w) => w.bm25)) || 1;
  for (const w of windows)
    w.score = w.bm25 / best + (TUNE.meeting * (meetingScore.get(w.meetingId) ?? 0)) / (top || 1);
  return meetingScore;
}

/**
 * The windows' scores (in place) scaled by how much of the query's weight each holds (all the
 * words, the rare ones) and the most that three neighbouring entries hold (words close together);
 * each window's best entry (its speaker and timestamp are the hit's).
 */
function rerank(db: Db, plan: SearchPlan, windows: Window[], passagesOf: Map<string, Passage[]>): void {
  if (windows.length === 0) return;
  const scratch = new Scratch();
  try {
    const n = indexSize(db);
    const concepts = plan.parsed.concepts;
    const weights = concepts.map((c) => conceptWeight(db, scratch, c, n));
    const total = weights.reduce((a, b) => a + b, 0) || 1;
    // The entries of every window, once each, as rows of the scratch table.
    const keyOf = new Map<string, number>();
    const rows: [number, string, string][] = [];
    for (const w of windows) {
      const passages = passagesOf.get(w.meetingId) ?? [];
      for (let i = w.first; i < w.first + w.count; i++) {
        const key = `${w.meetingId}\u0000${i}`;
        if (keyOf.has(key)) continue;
        const p = passages[i];
        keyOf.set(key, rows.length + 1);
        rows.push([rows.length + 1, segmentCjk(p?.text ?? ''), segmentCjk(p?.speaker ?? '')]);
      }
    }
    scratch.db
      .prepare(
        "INSERT INTO e(rowid, text, who) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?)",
      )
      .run(JSON.stringify(rows));
    const matchOf = scratch.db.prepare<{ rowid: number }>('SELECT rowid FROM e WHERE e MATCH ?');
    const inEntries = concepts.map(
      (c) => new Set(matchOf.all(conceptExpression(c)).map((r) => Number(r.rowid))),
    );
    const inText = concepts.map(
      (c) => new Set(matchOf.all(`text : (${conceptExpression(c)})`).map((r) => Number(r.rowid))),
    );
    for (const w of windows) {
      const keys: number[] = [];
      for (let i = w.first; i < w.first + w.count; i++) keys.push(keyOf.get(`${w.meetingId}\u0000${i}`)!);
      const held = concepts.map((_, c) => keys.some((k) => inEntries[c]!.has(k)));
      let bestWeight = -1;
      keys.forEach((key, i) => {
        const weight = concepts.reduce((sum, _, c) => sum + (inEntries[c]!.has(key) ? weights[c]! : 0), 0);
        if (weight > bestWeight) {
          bestWeight = weight;
          w.best = w.first + i;
        }
      });
      // Words close together: the most weight three neighbouring entries hold (each concept once).
      let near = 0;
      for (let i = 0; i < keys.length; i++) {
        const around = keys.slice(Math.max(0, i - 1), i + 2);
        const weight = concepts.reduce(
          (sum, _, c) => sum + (around.some((k) => inEntries[c]!.has(k)) ? weights[c]! : 0),
          0,
        );
        near = Math.max(near, weight);
      }
      const coverage = held.reduce((sum, h, c) => sum + (h ? weights[c]! : 0), 0) / total;
      w.score *= (TUNE.floor + coverage) ** TUNE.power * (1 + TUNE.near * (near / total));
      w.speakerMatches = concepts.flatMap((c, k) =>
        held[k] && !keys.some((key) => inText[k]!.has(key)) ? c.alternatives.map((a) => a.text) : [],
      );
    }
  } finally {
    scratch.close();
  }
}

/** Matching passages of live meetings, best first. */
export function* findPassages(
  db: Db,
  plan: SearchPlan | string,
  options: FindOptions = {},
): Generator<PassageHit> {
  const planned = typeof plan === 'string' ? planSearch(db, plan, { exact: true }) : plan;
  const { windows, passagesOf } = rankWindows(db, planned, options, options.limit);
  const chosen = windows.slice(0, options.limit);
  const hits = materialize(planned, chosen, passagesOf);
  let rank = 0;
  for (const { matched, ...hit } of hits) yield { ...hit, rank: ++rank, matched };
}

/** One row per meeting, best first, each with its best passages (up to three). */
export function* findMeetings(db: Db, plan: SearchPlan, options: FindOptions = {}): Generator<MeetingHit> {
  const wanted = options.limit === undefined ? undefined : options.limit * 3;
  const { windows, passagesOf, meetingScore } = rankWindows(db, plan, options, wanted);
  const order: string[] = [];
  const of = new Map<string, Window[]>();
  for (const w of windows) {
    const list = of.get(w.meetingId);
    if (list) {
      if (list.length < 3) list.push(w);
      continue;
    }
    of.set(w.meetingId, [w]);
    order.push(w.meetingId);
  }
  // Meetings by their score (the reranked ones), the others after in the order of their best window.
  const ranked = order
    .map((id, i) => ({ id, i, score: meetingScore.get(id) }))
    .sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.i - b.i)
    .slice(0, options.limit);
  const all = ranked.flatMap((r) => of.get(r.id)!);
  for (const w of all) if (!passagesOf.has(w.meetingId)) passagesOf.set(w.meetingId, []);
  const hits = materialize(plan, all, passagesOf, db);
  let rank = 0;
  let at = 0;
  for (const r of ranked) {
    const mine = hits.slice(at, at + of.get(r.id)!.length);
    at += mine.length;
    const [first] = mine;
    if (!first) continue;
    const { matched: _, ...where } = first;
    yield {
      ...where,
      rank: ++rank,
      matched: [...new Set(mine.flatMap((h) => h.matched))],
      passages: mine.map(({ in: kind, speaker, timestamp, snippet, matched }) => ({
        in: kind,
        speaker,
        timestamp,
        snippet,
        matched,
      })),
    };
  }
}

/** The hits of `windows`: where (best entry), snippet and matched words, in that order. */
function materialize(
  plan: SearchPlan,
  windows: readonly Window[],
  passagesOf: Map<string, Passage[]>,
  db?: Db,
): Omit<PassageHit, 'rank'>[] {
  if (db) {
    const source = db.prepare<{ json: string; transcript: string | null }>(
      'SELECT m.json, t.json AS transcript FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id WHERE m.id = ?',
    );
    for (const w of windows) {
      if (passagesOf.get(w.meetingId)?.length) continue;
      const r = source.get(w.meetingId);
      if (r)
        passagesOf.set(
          w.meetingId,
          meetingPassages(
            JSON.parse(r.json) as Record<string, unknown>,
            r.transcript === null ? undefined : JSON.parse(r.transcript),
          ),
        );
    }
  }
  const texts = windows.map((w) =>
    (passagesOf.get(w.meetingId) ?? [])
      .slice(w.first, w.first + w.count)
      .map((p) => p.text)
      .join('\n'),
  );
  const byMeeting = new Map<string, number[]>();
  windows.forEach((w, i) => {
    const list = byMeeting.get(w.meetingId);
    if (list) list.push(i);
    else byMeeting.set(w.meetingId, [i]);
  });
  let made: { snippet: string; matched: string[] }[];
  const snippetsOf = snippetMaker(plan.match);
  try {
    // One batch for all the hits (one table fill, one query): a text's snippet depends only on the
    // text. Meeting by meeting only when the texts together hold every separator candidate (hostile
    // text): a meeting's snippets then still get a separator whenever its own texts leave one free.
    if (freeSeparator(texts) !== undefined) made = snippetsOf(texts);
    else {
      made = new Array(windows.length).fill({ snippet: '', matched: [] });
      for (const ats of byMeeting.values()) {
        const some = snippetsOf(ats.map((at) => texts[at]!));
        ats.forEach((at, k) => {
          made[at] = some[k]!;
        });
      }
    }
  } finally {
    snippetsOf.close();
  }
  return windows.map((w, i) => {
    const passages = passagesOf.get(w.meetingId) ?? [];
    const best = passages[w.best] ?? passages[w.first];
    const { snippet, matched } = made[i]!;
    return {
      meetingId: w.meetingId,
      meetingName: w.meetingName,
      createdAt: w.createdAt,
      in: w.kind,
      speaker: best?.speaker ?? null,
      timestamp: typeof best?.timestamp === 'number' ? best.timestamp : null,
      // A window found by its speakers alone has no match in its text: its beginning.
      snippet: snippet || clampSnippet(texts[i]!.slice(0, SNIPPET_MAX * 2)),
      matched: [...new Set([...matched, ...w.speakerMatches])],
    };
  });
}

/** A hit as data: matches between ** in its snippets (the private marks never leave mtg). */
export function plainHit<T extends PassageHit | MeetingHit>(hit: T): T {
  const out = { ...hit, snippet: plainSnippet(hit.snippet) };
  if ('passages' in out) out.passages = out.passages.map((p) => ({ ...p, snippet: plainSnippet(p.snippet) }));
  return out;
}

/** Meetings with a matching passage, by their best passage: offline `meetings search TERM`. */
export function rankedMeetingIds(db: Db, match: string): string[] {
  // bm25() cannot feed an aggregate, so the best passage of each meeting is its first one in rank order.
  const seen = new Set<number>();
  const rows = db.prepare<{ base: number }>(
    `SELECT rowid >> ${ROWID_MEETING_SHIFT} AS base FROM passages WHERE passages MATCH ? ORDER BY rank, rowid`,
  );
  for (const row of rows.iterate(match)) seen.add(Number(row.base));
  const idOf = db.prepare<{ id: string }>('SELECT id FROM meetings WHERE passage_base = ?');
  return [...seen].flatMap((base) => {
    const row = idOf.get(base);
    return row ? [String(row.id)] : [];
  });
}
