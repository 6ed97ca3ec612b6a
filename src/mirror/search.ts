import { segmentCjk } from '../shared/cjk.js';
import type { Db } from './driver.js';
import { fromRowId, KIND_CODES, type Passage, ROWID_MEETING_SHIFT, WINDOW_ENTRIES } from './passages.js';
import { materialize, plainHit, rankedMeetingIds } from './search-hits.js';
import {
  beginEntries,
  conceptWeight,
  editDistance,
  endEntries,
  indexSize,
  loadMeetingPassages,
  planSearch,
  scratch,
} from './search-plan.js';
import {
  type Alternative,
  type Concept,
  conceptExpression,
  matchExpression,
  PASSAGE_KINDS,
  type ParsedQuery,
  type PassageKind,
  parseQuery,
  toMatchExpression,
} from './search-query.js';
import { allocate, densestPlaces, rankedRows, TUNE, withoutOverlaps } from './search-rank.js';
import type { FindOptions, MeetingHit, PassageHit, SearchPlan, Window } from './search-types.js';

export {
  clampSnippet,
  freeSeparator,
  MATCH_END,
  MATCH_START,
  plainSnippet,
  SNIPPET_MAX,
} from './snippets.js';
export type {
  Alternative,
  Concept,
  FindOptions,
  MeetingHit,
  ParsedQuery,
  PassageHit,
  PassageKind,
  SearchPlan,
};
export {
  conceptExpression,
  editDistance,
  matchExpression,
  PASSAGE_KINDS,
  parseQuery,
  plainHit,
  planSearch,
  rankedMeetingIds,
  TUNE,
  toMatchExpression,
};

/** Ranked windows of live meetings, best first, with the passages of their meetings. */
function rankWindows(
  db: Db,
  plan: SearchPlan,
  options: FindOptions,
  wanted: number | undefined,
): { windows: Window[]; passagesOf: Map<string, Passage[]>; meetingScore: Map<string, number> } {
  const { where, params } = passageFilters(options);
  const ranked = rankedRows(db, plan, where, params, wanted);
  // The meetings of the rows, in one statement (a row's meeting is its rowid's block, passages.ts).
  const meetings = new Map<number, { id: string; name: string | null; createdAt: string | null }>();
  const bases = [...new Set(ranked.map((r) => fromRowId(Number(r.rowid)).base))];
  for (const m of db
    .prepare<{ base: number; id: string; name: string | null; createdAt: string | null }>(
      'SELECT passage_base AS base, id, name, created_at AS createdAt FROM meetings' +
        ' WHERE passage_base IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL',
    )
    .all(JSON.stringify(bases)))
    meetings.set(Number(m.base), { id: m.id, name: m.name, createdAt: m.createdAt });
  const windows: Window[] = [];
  for (const { rowid, score } of ranked) {
    const { base, kind, first } = fromRowId(Number(rowid));
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
  const load = (meetingId: string) => {
    let passages = passagesOf.get(meetingId);
    if (passages) return passages;
    passages = loadMeetingPassages(db, meetingId);
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
  const firstScores = new Map(head.map((w) => [w, w.score]));
  for (const w of head) w.count = Math.max(1, Math.min(w.count, load(w.meetingId).length - w.first));
  rerank(db, plan, head, passagesOf);
  head.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  const rest = [...pool.slice(TUNE.reranked), ...windows.slice(TUNE.candidates)];
  const kept = densestPlaces(withoutOverlaps([...head, ...rest]), head, firstScores, windows, rest);
  const windowsShown = allocate(kept, meetingScore);
  const shown = windowsShown.slice(0, wanted);
  for (const w of shown) {
    const length = load(w.meetingId).length;
    w.count = Math.max(1, Math.min(w.count, length - w.first));
  }
  // A shown window the rerank did not read (a next meeting's best, past the first TUNE.reranked)
  // still reports its best entry and its speaker matches, not its first entry; its place is kept.
  if (TUNE.entries > 0) {
    const read = new Set(head);
    const unread = shown.filter((w) => !read.has(w));
    const places = unread.map((w) => w.score);
    rerank(db, plan, unread, passagesOf);
    unread.forEach((w, i) => {
      w.score = places[i]!;
    });
  }
  return { windows: windowsShown, passagesOf, meetingScore };
}

/** The SQL conditions (and their parameters) of find's --since, --until and --in on passages. */
function passageFilters(options: FindOptions): { where: string[]; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
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
  return { where, params };
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
  const scratchDb = scratch();
  beginEntries(scratchDb);
  try {
    const concepts = plan.parsed.concepts;
    // One concept's weight cancels out (coverage and nearness below are shares of the total, and an
    // entry's weight is only compared with another's): any positive weight ranks alike. So a
    // one-word search skips the index's size, a count of every passage (~300 page faults at each
    // start on a mirror of 5,000 meetings: bench/README.md, issue 33); indexSize() counts once per connection.
    const weights =
      concepts.length === 1 ? [1] : concepts.map((c) => conceptWeight(db, scratchDb, c, indexSize(db)));
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
    scratchDb.db
      .prepare(
        "INSERT INTO e(rowid, text, who) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?)",
      )
      .run(JSON.stringify(rows));
    const matchOf = scratchDb.db.prepare<{ rowid: number }>('SELECT rowid FROM e WHERE e MATCH ?');
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
      // The weight of the concepts some of `around` hold (each concept once).
      const heldBy = (around: number[]) =>
        concepts.reduce((sum, _, c) => sum + (around.some((k) => inEntries[c]!.has(k)) ? weights[c]! : 0), 0);
      // An entry's weight: the concepts its text holds, and those only its speaker matches (the
      // question names who: "what did the Marketing think…") TUNE.speakerEntry times.
      const entryWeight = (key: number) =>
        concepts.reduce(
          (sum, _, c) =>
            sum +
            (inText[c]!.has(key)
              ? weights[c]!
              : inEntries[c]!.has(key)
                ? TUNE.speakerEntry * weights[c]!
                : 0),
          0,
        );
      keys.forEach((key, i) => {
        const weight = entryWeight(key);
        if (weight > bestWeight) {
          bestWeight = weight;
          w.best = w.first + i;
        }
      });
      // Words close together: the most weight three neighbouring entries hold (each concept once).
      let near = 0;
      for (let i = 0; i < keys.length; i++)
        near = Math.max(near, heldBy(keys.slice(Math.max(0, i - 1), i + 2)));
      const coverage = held.reduce((sum, h, c) => sum + (h ? weights[c]! : 0), 0) / total;
      w.score *= (TUNE.floor + coverage) ** TUNE.power * (1 + TUNE.near * (near / total));
      w.speakerMatches = concepts.flatMap((c, k) =>
        held[k] && !keys.some((key) => inText[k]!.has(key)) ? c.alternatives.map((a) => a.text) : [],
      );
    }
  } finally {
    endEntries(scratchDb);
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
