// Full-text search of the mirror (`mtg find`, offline `meetings search`): the user's query turned
// into a safe FTS5 MATCH expression, and ranked passages with snippets.
//
// The query language: words must all match (in one passage); "quoted phrases"; prefix*; OR between
// two terms; -word or -"phrase" excludes. Every word reaches FTS5 as a quoted string, so nothing the
// user types can be read as FTS5 syntax (column filters, NEAR, ^, parentheses) or break the query.

import { UsageError } from '../api/errors.js';
import { segmentCjk } from './cjk.js';
import type { Db } from './driver.js';
import { meetingPassages, PASSAGES_PER_MEETING } from './passages.js';
import { freeSeparator, snippetMaker } from './snippets.js';

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

interface Term {
  /** The FTS5 string: a quoted phrase, maybe with a trailing * (prefix). */
  fts: string;
  negated: boolean;
}

const WORDISH = /[\p{L}\p{N}]/u;

/** One FTS5 string; CJK characters as the index has them, one token each (a run: a phrase). */
function quote(text: string, prefix: boolean): string {
  const tokens = segmentCjk(text).trim().replace(/\s+/g, ' ');
  return `"${tokens.replace(/"/g, '""')}"${prefix ? '*' : ''}`;
}

/**
 * The user's query as an FTS5 MATCH expression. Malformed (empty, an unbalanced quote, only
 * exclusions, a dangling OR): a UsageError with a one-line reason.
 */
export function toMatchExpression(query: string): string {
  type Token = { kind: 'term'; term: Term } | { kind: 'or' };
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
      tokens.push({ kind: 'term', term: { fts: quote(phrase.trim(), prefix), negated } });
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
    if (!WORDISH.test(word)) continue; // "-", "&&", "*": no word in it
    tokens.push({ kind: 'term', term: { fts: quote(word, prefix), negated } });
  }

  // Positive terms in AND-groups of OR-alternatives; exclusions apart (FTS5's NOT is binary).
  const groups: string[][] = [];
  const excluded: string[] = [];
  let pendingOr = false;
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k]!;
    if (token.kind === 'or') {
      const before = tokens[k - 1];
      const after = tokens[k + 1];
      if (
        before?.kind !== 'term' ||
        before.term.negated ||
        !after ||
        after.kind !== 'term' ||
        after.term.negated
      ) {
        throw new UsageError('OR needs a word or "phrase" on each side (and cannot join an -exclusion)');
      }
      pendingOr = true;
      continue;
    }
    if (token.term.negated) excluded.push(token.term.fts);
    else if (pendingOr) groups[groups.length - 1]!.push(token.term.fts);
    else groups.push([token.term.fts]);
    pendingOr = false;
  }
  if (groups.length === 0) {
    if (excluded.length > 0)
      throw new UsageError('The query only excludes (-word): give at least one word to find');
    throw new UsageError('The query has no word to search for');
  }
  const positive = groups.map((g) => (g.length === 1 ? g[0]! : `(${g.join(' OR ')})`)).join(' AND ');
  if (excluded.length === 0) return positive;
  return excluded.reduce((expr, term) => `${expr} NOT ${term}`, `(${positive})`);
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
  speaker: string | null;
  timestamp: number | null;
  /** The passage around the matches, each match between MATCH_START and MATCH_END. */
  snippet: string;
  /** 1 for the best hit. */
  rank: number;
}

/** Matching passages of live meetings, best first (bm25). */
export function* findPassages(db: Db, match: string, options: FindOptions = {}): Generator<PassageHit> {
  // Two steps: rank first (rowids only, so the sort carries no text), then a snippet for each hit
  // kept. In one query SQLite computes every matching passage's snippet before sorting: a common
  // word in 5,000 transcripts took seconds for 20 hits.
  const where = ['passages MATCH ?'];
  const params: (string | number)[] = [match];
  // The dates pick meetings, not passages: the meetings in the window are found once, and a passage
  // is kept by its rowid's block (rowid >> 20 is its meeting's passage_base, passages.ts). Joining
  // each matching passage to its meeting and parsing its date made `find roadmap --since` 4x slower.
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
      `(p.rowid >> ${Math.log2(PASSAGES_PER_MEETING)}) IN (SELECT m.passage_base FROM meetings AS m WHERE ${dates.join(' AND ')})`,
    );
  const ranking = (extra: string[], limit: number | undefined) =>
    'SELECT p.rowid AS rowid FROM passages AS p' +
    ` WHERE ${[...where, ...extra].join(' AND ')}` +
    ' ORDER BY bm25(passages), p.rowid' +
    (limit !== undefined ? ' LIMIT ?' : '');
  const kinds = options.kinds?.length ? options.kinds : undefined;
  const limit = options.limit;
  let ranked: { rowid: number }[] | undefined;
  if (kinds && limit !== undefined && limit > 0 && mostlyOfKinds(db, match, kinds))
    ranked = firstOfKinds(db, ranking([], undefined), params, kinds, limit);
  if (!ranked) {
    const filter = kinds ? [`p.kind IN (${kinds.map(() => '?').join(', ')})`] : [];
    const all = [...params, ...(kinds ?? []), ...(limit !== undefined ? [limit] : [])];
    ranked = db.prepare<{ rowid: number }>(ranking(filter, limit)).all(...all);
  }
  const one = db.prepare<{
    meetingId: string;
    meetingName: string | null;
    createdAt: string | null;
    kind: string;
    speaker: string | null;
    timestamp: number | null;
    base: number;
  }>(
    'SELECT p.meeting_id AS meetingId, m.name AS meetingName, m.created_at AS createdAt, p.kind AS kind,' +
      ' p.speaker AS speaker, p.timestamp AS timestamp, m.passage_base AS base' +
      ' FROM passages AS p JOIN meetings AS m ON m.id = p.meeting_id' +
      // CAST: FTS5 ignores `rowid = ?` when the value is bound as a REAL (a JS number).
      ' WHERE p.rowid = CAST(? AS INTEGER) AND m.deleted_at IS NULL',
  );
  // Hits in rank order, then their texts meeting by meeting: each meeting's JSON is read and
  // parsed once however many of its passages match (in rank order, a common word's hits jump
  // between meetings, and parsing a transcript for each hit made `find budget` 3.5x slower).
  const hits: ({ rowid: number; index: number } & NonNullable<ReturnType<typeof one.get>>)[] = [];
  const byMeeting = new Map<string, number[]>();
  for (const { rowid } of ranked) {
    const row = one.get(rowid);
    if (!row) continue; // a tombstoned meeting's passage (sync removes them; never shown)
    const meetingId = String(row.meetingId);
    const at = hits.push({ ...row, meetingId, rowid, index: rowid - row.base * PASSAGES_PER_MEETING }) - 1;
    const list = byMeeting.get(meetingId);
    if (list) list.push(at);
    else byMeeting.set(meetingId, [at]);
  }
  const texts: string[] = new Array(hits.length).fill('');
  const source = db.prepare<{ json: string; transcript: string | null }>(
    'SELECT m.json, t.json AS transcript FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id WHERE m.id = ?',
  );
  for (const [meetingId, ats] of byMeeting) {
    const r = source.get(meetingId);
    if (!r) continue;
    // JSON.parse, not fromJsonText: only the passages' texts are used here, and those are strings
    // either way (fromJsonText differs only in integers beyond 2^53), without its scan for them.
    const passages = meetingPassages(
      JSON.parse(r.json) as Record<string, unknown>,
      r.transcript === null ? undefined : JSON.parse(r.transcript),
    );
    for (const at of ats) texts[at] = passages[hits[at]!.index]?.text ?? '';
  }
  let snippets: string[];
  const snippetsOf = snippetMaker(match);
  try {
    // One batch for all the hits (one table fill, one query): a text's snippet depends only on the
    // text. Meeting by meeting only when the texts together hold every separator candidate (hostile
    // text): a meeting's snippets then still get a separator whenever its own texts leave one free.
    if (freeSeparator(texts) !== undefined) snippets = snippetsOf(texts);
    else {
      snippets = new Array(hits.length).fill('');
      for (const ats of byMeeting.values()) {
        const made = snippetsOf(ats.map((at) => texts[at]!));
        ats.forEach((at, k) => {
          snippets[at] = made[k]!;
        });
      }
    }
  } finally {
    snippetsOf.close();
  }
  let rank = 0;
  for (const [i, hit] of hits.entries()) {
    rank++;
    yield {
      meetingId: hit.meetingId,
      meetingName: hit.meetingName ?? null,
      createdAt: hit.createdAt ?? null,
      in: hit.kind as PassageKind,
      speaker: hit.speaker ?? null,
      timestamp: typeof hit.timestamp === 'number' ? hit.timestamp : null,
      snippet: snippets[i]!,
      rank,
    };
  }
}

/** How many ranked passages firstOfKinds reads, per hit asked for, before it gives up. */
const KIND_SCAN_PER_HIT = 100;
/** Matching passages mostlyOfKinds looks at (the first ones by rowid: one read of each's kind). */
const KIND_SAMPLE = 256;

/**
 * Whether at least a quarter of a sample of the passages matching `match` are of `kinds`: then
 * firstOfKinds soon finds the hits; otherwise the kinds are better filtered while ranking (they
 * leave few passages to rank). Only a choice of the faster way: both give the same hits.
 */
function mostlyOfKinds(db: Db, match: string, kinds: readonly PassageKind[]): boolean {
  const wanted = new Set<string>(kinds);
  const sample = db
    .prepare<{ kind: string }>('SELECT kind FROM passages WHERE passages MATCH ? LIMIT ?')
    .all(match, KIND_SAMPLE);
  return sample.filter((r) => wanted.has(String(r.kind))).length * 4 >= sample.length;
}

/**
 * The first `limit` passages of `kinds` in the rank order of `sql` (every kind), or undefined when
 * they are not among its first limit * KIND_SCAN_PER_HIT. The same rows, in the same order, as
 * `p.kind IN (kinds)` in the ranking query (bm25 is the same whatever the WHERE keeps), but there
 * SQLite reads each matching passage's kind (a row of the index's content table) before ranking
 * it, which made `find budget approval --in transcript` twice the cost of the same search without
 * --in; here only the kinds of the passages read in rank order are read.
 */
function firstOfKinds(
  db: Db,
  sql: string,
  params: readonly (string | number)[],
  kinds: readonly PassageKind[],
  limit: number,
): { rowid: number }[] | undefined {
  const wanted = new Set<string>(kinds);
  const kindOf = db.prepare<{ rowid: number; kind: string }>(
    'SELECT rowid, kind FROM passages WHERE rowid IN (SELECT value FROM json_each(?))',
  );
  const out: { rowid: number }[] = [];
  let batch: number[] = [];
  const check = () => {
    const kindsOf = new Map(kindOf.all(JSON.stringify(batch)).map((r) => [Number(r.rowid), String(r.kind)]));
    for (const rowid of batch) if (out.length < limit && wanted.has(kindsOf.get(rowid)!)) out.push({ rowid });
    batch = [];
  };
  let read = 0;
  for (const { rowid } of db.prepare<{ rowid: number }>(sql).iterate(...params)) {
    batch.push(rowid);
    read++;
    if (batch.length === 64) check();
    if (out.length >= limit) return out;
    if (read >= limit * KIND_SCAN_PER_HIT) return undefined;
  }
  check();
  return out;
}

/** Meetings with a matching passage, by their best passage: offline `meetings search TERM`. */
export function rankedMeetingIds(db: Db, match: string): string[] {
  // bm25() cannot feed an aggregate, so the best passage of each meeting is its first one in rank order.
  const seen = new Set<string>();
  const rows = db.prepare<{ id: string }>(
    'SELECT meeting_id AS id FROM passages WHERE passages MATCH ? ORDER BY rank, rowid',
  );
  for (const row of rows.iterate(match)) seen.add(String(row.id));
  return [...seen];
}
