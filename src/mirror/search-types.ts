// The shapes search hands around: a plan, the options of a find, the hits, a ranked window.

import type { ParsedQuery, PassageKind } from './search-query.js';

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

export interface Window {
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
