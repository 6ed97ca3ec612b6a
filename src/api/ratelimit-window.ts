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
  /** This period's reports of admitted requests, and the period's before it (a refill seen early may not be the server's yet). */
  reports: Report[];
  before: Report[];
}

/** What an admitted request's answer said of a window: its Remaining, and the request (when it left, in steps). */
export interface Report {
  reportSeq: number;
  reportSentStep: number;
  remaining: number;
}

/** Requests of `sent` the server may have counted since the report of `mark`: all but refused ones, that report's own, and those answered before its request left. */
export function countedSince(
  sent: readonly Sent[],
  mark: { reportSeq?: number; reportSentStep?: number },
): number {
  const after = mark.reportSentStep ?? Number.NEGATIVE_INFINITY;
  return sent.filter((s) => !s.refused && s.seq !== mark.reportSeq && (s.doneStep ?? Infinity) > after)
    .length;
}

/**
 * What a new period's first report says of another client: `sure` when it counts more than ours can
 * be, `none` when not; undefined when our own requests since a report of the period before explain
 * its count (the server's refill may come later than bounded, so that report says nothing).
 */
export function othersShown(
  w: Window,
  remaining: number,
  sent: readonly Sent[],
): 'none' | 'sure' | undefined {
  if (w.limit === undefined) return undefined;
  if (w.before.some((r) => remaining < r.remaining && remaining >= r.remaining - countedSince(sent, r)))
    return;
  return remaining < w.limit - countedSince(sent, w) ? 'sure' : 'none';
}

/** The earliest send (step) after which an answered request may still count for `w`'s reports, this period's or the one's before. */
export function oldestMark(w: Window): number {
  return Math.min(w.reportSentStep ?? 0, ...w.before.map((r) => r.reportSentStep));
}

/** A window seen to refill (at `now`): all its allowance left, its reports so far now the period before's. */
export function refill(w: Window, seq: number, now: number, mark: Partial<Window>): void {
  Object.assign(w, { remaining: w.limit, seq, since: now, before: w.reports, reports: [] }, mark);
}

export function newWindow(limit: number | undefined): Window {
  return { limit, remaining: 0, seq: 0, since: Number.NEGATIVE_INFINITY, reports: [], before: [] };
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
