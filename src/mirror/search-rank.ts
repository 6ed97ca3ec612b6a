// The first stage of a search: the index's rows matching the query, ranked by FTS5's bm25; the
// knobs of the ranking (search.ts reranks them); and the order of the reranked windows as hits.

import type { Db } from './driver.js';
import { conceptDocs, scratch } from './search-plan.js';
import { matchExpression } from './search-query.js';
import type { SearchPlan, Window } from './search-types.js';

/** Ranking knobs (tuned on QMSum's train split: bench/README.md; a bench may set them). */
export const TUNE = {
  /** bm25 weights of the text and the speakers columns. */
  text: 1,
  speakers: 2,
  /** Windows ranked by bm25 and then reranked (and aggregated into their meetings' scores). */
  candidates: 300,
  /** Rows bm25 ranks at most for the query's common words (rankedRows). */
  scored: 10_000,
  /** Rows the query's rarer words may match together and all be ranked (rankedRows). */
  rare: 10_000,
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
  /** The best windows shown first; then the best window of each next meeting by its score (0: windows only). */
  lead: 5,
  /** 1: the shown windows the rerank did not read get their best entry too (0: their first entry). */
  entries: 1,
  /**
   * Which of a meeting's windows fill its places among the hits: a reranked window's score +
   * density × the bm25 (of the best) of its meeting's ranked windows starting within densityReach
   * entries of it (search.ts, densestPlaces).
   */
  density: 1,
  densityReach: 20,
  /** A word matched by an entry's speaker (not its text) counts this many times its weight in the entry's choice. */
  speakerEntry: 3,
};

/**
 * The rows of the index matching the plan (and `where`), best by bm25 first; with `wanted`, about
 * the first TUNE.candidates + 3 × wanted. FTS5 computes bm25 for every row a query matches before
 * any LIMIT applies (a common word: every window of the mirror), so when the query's words match
 * more than TUNE.scored rows together, bm25 ranks the TUNE.scored most recently indexed rows
 * matching any word, and, in a second query, every row matching the query's rarer words (those
 * matching at most TUNE.scored rows together): a row holding a rare word is never missed, a row
 * holding only common words is looked for among the newest. A row found by both keeps the first
 * query's score, which counts every word it holds.
 */
export function rankedRows(
  db: Db,
  plan: SearchPlan,
  where: string[],
  params: (string | number)[],
  wanted: number | undefined,
): { rowid: number; score: number }[] {
  const limit = wanted === undefined ? '' : ` LIMIT ${TUNE.candidates + 3 * wanted}`;
  const matching =
    `SELECT p.rowid AS rowid, bm25(passages, ${TUNE.text}, ${TUNE.speakers}) AS score FROM passages AS p` +
    ` WHERE passages MATCH ?${where.map((w) => ` AND ${w}`).join('')}`;
  const select = (match: string, capped: boolean) =>
    db
      .prepare<{ rowid: number; score: number }>(
        capped
          ? `SELECT rowid, score FROM (${matching} ORDER BY p.rowid DESC LIMIT ${TUNE.scored}) ORDER BY score, rowid${limit}`
          : `${matching} ORDER BY score, p.rowid${limit}`,
      )
      .all(match, ...params);
  if (wanted === undefined) return select(plan.match, false);
  const { concepts, excluded } = plan.parsed;
  const docs = concepts.map((c) => conceptDocs(db, scratch(), c));
  if (docs.reduce((a, b) => a + b, 0) <= TUNE.scored) return select(plan.match, false);
  // The rarer words: the rarest first, while they match at most TUNE.rare rows together.
  const rare = new Set<number>();
  let sum = 0;
  for (const i of docs.map((_, i) => i).sort((a, b) => docs[a]! - docs[b]!)) {
    if (sum + docs[i]! > TUNE.rare) break;
    sum += docs[i]!;
    rare.add(i);
  }
  const rows = select(plan.match, true);
  if (rare.size > 0) {
    const seen = new Set(rows.map((r) => Number(r.rowid)));
    const rarer = matchExpression({ concepts: concepts.filter((_, i) => rare.has(i)), excluded });
    for (const r of select(rarer, false)) if (!seen.has(Number(r.rowid))) rows.push(r);
  }
  return rows.sort((a, b) => a.score - b.score || a.rowid - b.rowid).slice(0, TUNE.candidates + 3 * wanted);
}

/**
 * Non-maximum suppression: a window overlapping a better one of its meeting is the same place, and
 * at most TUNE.perMeeting hits of a meeting come before every other meeting's first ones.
 */
export function withoutOverlaps(windows: Window[]): Window[] {
  const kept: Window[] = [];
  const deferred: Window[] = [];
  const taken = new Map<string, [number, number][]>();
  for (const w of windows) {
    const spans = taken.get(w.meetingId) ?? [];
    if (spans.some(([f, c]) => w.first < f + c && f < w.first + w.count)) continue;
    spans.push([w.first, w.count]);
    taken.set(w.meetingId, spans);
    if (TUNE.perMeeting > 0 && spans.length > TUNE.perMeeting) deferred.push(w);
    else kept.push(w);
  }
  kept.push(...deferred);
  return kept;
}

/**
 * The order of the hits: the TUNE.lead best windows (several of one meeting, when it has them:
 * the answer is often in its second or third best window), then the best window of each next
 * meeting by its score, each once (the right meeting is more often among ten meetings than among
 * the meetings of the ten best windows), then the other windows in their order.
 */
export function allocate(windows: Window[], meetingScore: Map<string, number>): Window[] {
  if (TUNE.lead <= 0) return windows;
  const out = windows.slice(0, TUNE.lead);
  const shown = new Set(out.map((w) => w.meetingId));
  const bestOf = new Map<string, Window>();
  for (const w of windows.slice(TUNE.lead)) if (!bestOf.has(w.meetingId)) bestOf.set(w.meetingId, w);
  const next = [...bestOf.values()]
    .filter((w) => !shown.has(w.meetingId))
    .sort((a, b) => (meetingScore.get(b.meetingId) ?? -1) - (meetingScore.get(a.meetingId) ?? -1));
  const taken = new Set([...out, ...next]);
  return [...out, ...next, ...windows.filter((w) => !taken.has(w))];
}

/**
 * Which of a meeting's windows fill its places among the hits (the places, and so the meetings'
 * order, stay): its reranked windows by their score + TUNE.density × the bm25 of its other ranked
 * transcript windows starting within TUNE.densityReach entries (of the best bm25; scaled as the
 * rerank scaled the window), then its others. An answer is a stretch of discussion (QMSum's spans:
 * a median of 21 entries), so a window amid other matching ones is more often in it.
 */
export function densestPlaces(
  kept: Window[],
  head: Window[],
  firstScores: Map<Window, number>,
  windows: Window[],
  rest: Window[],
): Window[] {
  if (TUNE.density <= 0 || head.length === 0) return kept;
  const byMeeting = new Map<string, Window[]>();
  for (const w of windows) {
    if (w.kind !== 'transcript') continue;
    const list = byMeeting.get(w.meetingId);
    if (list) list.push(w);
    else byMeeting.set(w.meetingId, [w]);
  }
  const best = Math.max(...windows.map((w) => w.bm25)) || 1;
  const densityOf = (w: Window) =>
    w.kind !== 'transcript'
      ? 0
      : (byMeeting.get(w.meetingId) ?? [])
          .filter((o) => o !== w && Math.abs(o.first - w.first) <= TUNE.densityReach)
          .reduce((sum, o) => sum + o.bm25, 0) / best;
  const key = new Map(
    head.map((w) => [w, w.score * (1 + (TUNE.density * densityOf(w)) / (firstScores.get(w) || 1))]),
  );
  const dense = withoutOverlaps([
    ...[...head].sort((a, b) => key.get(b)! - key.get(a)! || a.rowid - b.rowid),
    ...rest,
  ]);
  const ofMeeting = new Map<string, Window[]>();
  for (const w of dense) {
    const list = ofMeeting.get(w.meetingId);
    if (list) list.push(w);
    else ofMeeting.set(w.meetingId, [w]);
  }
  const used = new Map<string, number>();
  return kept.flatMap((w) => {
    const i = used.get(w.meetingId) ?? 0;
    used.set(w.meetingId, i + 1);
    const placed = ofMeeting.get(w.meetingId)?.[i];
    return placed ? [placed] : [];
  });
}
