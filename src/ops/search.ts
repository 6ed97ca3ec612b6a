// Searching the mirror: the search engine's entry (MirrorReads.plan, find, findMeetings: src/mirror/
// search*.ts) behind named parameters, for `mtg find` and `mtg mcp`'s search, which therefore give
// the same hits in the same order.

import { MirrorReads } from '../mirror/reads.js';
import type { MeetingHit, PassageHit, PassageKind } from '../mirror/search.js';
import type { MirrorReader } from './action-items.js';

export interface SearchQuery {
  /** Keywords, "phrases", prefix*, a OR b, -word, or a question in plain words. */
  query: string;
  /** Only passages of these kinds (none: every kind). */
  in?: readonly PassageKind[];
  /** The meeting created at or after this instant (ISO 8601). */
  since?: string;
  /** The meeting created before this instant (ISO 8601). */
  until?: string;
  /** passage (default): one hit per passage; meeting: one per meeting with its best passages. */
  groupBy?: 'passage' | 'meeting';
  /** Ranked up to here only: ranking every match of a common word is slow. */
  limit?: number;
  /** The words as typed: no typo correction. */
  exact?: boolean;
}

export interface SearchResult {
  /** Words that matched nothing, and what was searched for instead. */
  corrections: { from: string; to: string }[];
  /** Best first; read lazily. */
  hits: Iterable<PassageHit | MeetingHit>;
}

/** The hits of `q` (a query the engine cannot parse: a usage error, before any hit). */
export function search(mirror: MirrorReader, q: SearchQuery): SearchResult {
  const reads = new MirrorReads(mirror);
  const planned = reads.plan(q.query, { exact: q.exact === true });
  const options = {
    kinds: q.in?.length ? [...new Set(q.in)] : undefined,
    since: q.since,
    until: q.until,
    limit: q.limit,
  };
  const hits = q.groupBy === 'meeting' ? reads.findMeetings(planned, options) : reads.find(planned, options);
  return { corrections: planned.corrections, hits };
}
