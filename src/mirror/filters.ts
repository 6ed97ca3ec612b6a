// What the offline reads (reads.ts) share: stored JSON read back exactly, row by row, and the
// filters the listings apply as the API does (sandbox and spec agree).

import { parseJsonExact } from '../shared/exact.js';
import type { Db } from './driver.js';

type Obj = Record<string, unknown>;

export function parse<T>(json: string): T {
  return parseJsonExact(json) as T;
}

/** The `json` column of each row of `sql`, as the rows are read. */
export function rows(db: Db, sql: string, ...params: string[]): Generator<string> {
  return (function* () {
    for (const row of db.prepare<{ json: string }>(sql).iterate(...params)) yield row.json;
  })();
}

export const LIVE_MEETINGS = 'SELECT json FROM meetings WHERE deleted_at IS NULL ORDER BY position, id';

/** An ID as text: numbers and ExactInteger alike. */
export const idText = (v: unknown): string | undefined =>
  v === null || v === undefined ? undefined : String(v);

export /** Any of the tags, and any of the attendees (as the API filters: sandbox and spec agree). */
function meetingMatches(
  m: Obj,
  filter: { tagIds?: readonly string[]; attendeeProfileIds?: readonly string[] },
): boolean {
  if (filter.tagIds) {
    const tags = ((m.tags as Obj[] | undefined) ?? []).map((t) => idText(t.id));
    if (!filter.tagIds.some((id) => tags.includes(id))) return false;
  }
  if (filter.attendeeProfileIds) {
    const people = ((m.attendees as Obj[] | undefined) ?? []).map((a) => idText(a.profileId));
    if (!filter.attendeeProfileIds.some((id) => people.includes(id))) return false;
  }
  return true;
}
