// What every endpoint handler receives and returns. Handlers are synchronous and pure over the
// store: the server owns HTTP, auth, limits, faults and latency.
import type { Paginator } from '../cursor.js';
import type { MeetingRec, Store } from '../model.js';

export interface Ctx {
  store: Store;
  pages: Paginator;
  /** The request pathname as received, including any base path. */
  pathname: string;
  query: URLSearchParams;
  params: Record<string, string>;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
  now: number;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: Ctx) => Reply;

export function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

export function list<T, U>(page: { items: T[]; link?: string }, map: (item: T) => U): Reply {
  const reply: Reply = { status: 200, body: page.items.map(map) };
  if (page.link) reply.headers = { Link: page.link };
  return reply;
}

/** Marks the store changed so cached list snapshots are not reused for new first pages. */
export function touch(store: Store): void {
  store.version++;
}

/**
 * Marks a meeting changed at `at`, and always later than before: churn dates changes by its own
 * clock, which may run ahead of the real one, and clients detect changes by `updatedAt`.
 */
export function bumpUpdatedAt(m: MeetingRec, at: number): void {
  m.updatedAt = Math.max(at, m.updatedAt + 1);
}

/** Meeting ids that pass every given meeting filter (undefined = no meeting filter given). */
export function meetingFilter(
  store: Store,
  filters: { tagIds?: number[]; attendeeProfileIds?: number[] },
): Set<string> | undefined {
  const { tagIds, attendeeProfileIds } = filters;
  if (!tagIds && !attendeeProfileIds) return undefined;
  const ids = new Set<string>();
  for (const m of store.meetings) {
    if (tagIds && !m.tagIds.some((t) => tagIds.includes(t))) continue;
    if (attendeeProfileIds && !m.attendees.some((a) => attendeeProfileIds.includes(a.profileId))) continue;
    ids.add(m.id);
  }
  return ids;
}
