// The first stage of a search: the index's rows matching the query, ranked by FTS5's bm25, and
// the knobs of the ranking (search.ts reranks them).

import type { Db } from './driver.js';
import { conceptDocs, scratch } from './search-plan.js';
import { matchExpression } from './search-query.js';
import type { SearchPlan } from './search-types.js';

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
