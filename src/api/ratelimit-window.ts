// One window the server reports (RateLimit-Limit/Remaining/Reset), as the limiter keeps it, and
// what its period is taken to be (docs/rate-limits.md has the model).

/** A request the limiter let out, when (RateLimiter.step) it left and its answer came (undefined: in flight); a refused one (429) is not counted. */
export interface Sent {
  seq: number;
  sentStep: number;
  doneStep?: number;
  refused: boolean;
}

/** One window the server reported, as its newest report says. */
export interface Window {
  limit: number | undefined;
  /** Remaining as of the newest report of this period (the lowest: the server's count only grows). */
  remaining: number;
  /** Requests sent after the report's own count against `remaining` (in-flight ones always do). */
  seq: number;
  /** When it refills: the earliest bound its reports of this period gave, or an estimate. */
  resetAt?: number;
  estimated?: boolean;
  /** When this period began (its refill; -Infinity: before this limiter saw one); a report of a request sent before it is of the period before. */
  since: number;
  /** When its first request of this period left (an estimate of the period's start). */
  startedAt?: number;
  /** The largest Reset seen (ms), and whether it is of a period seen from its start (see periodMs()). */
  longestResetMs?: number;
  learned?: boolean;
  /** The request whose report said `remaining` (none: a refill), when it left, and when its answer came back (steps). */
  reportSeq?: number;
  reportSentStep?: number;
  heardStep?: number;
}

/**
 * A window's period. The server says only how long is left, so a window first seen mid-period shows
 * less than its length: until a refill is seen, it is taken as the next of the spec's per-second and
 * per-minute periods at or above the longest Reset seen (a 20-a-minute window first seen with 20 s
 * left is a minute long, not 20 s); after a refill, its reports of a whole period tell.
 */
export function periodMs(w: Window): number {
  const seen = Math.max(w.longestResetMs ?? 0, 1000);
  if (w.learned) return seen;
  return seen <= 1000 ? 1000 : Math.max(seen, 60_000);
}
