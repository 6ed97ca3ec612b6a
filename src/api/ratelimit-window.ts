// One window the server reports (RateLimit-Limit/Remaining/Reset), as the limiter keeps it, and
// what its period is taken to be (docs/rate-limits.md has the model).

import { RETRY_AFTER_JITTER_MAX_MS } from './retry.js';

/** A request the limiter let out, when (RateLimiter.step) it left and its answer came (undefined: in flight); a refused one (429) is not counted. */
export interface Sent {
  seq: number;
  sentStep: number;
  doneStep?: number;
  refused: boolean;
  /** The window its answer reported, and its share left (Remaining over Limit). */
  named?: Window;
  share?: number;
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
  /** This period's end bounded by its start: the first answer to a request sent since its refill, plus the longest the period can be. */
  endBy?: number;
  /** The longest from our first request of a period to its end's bound seen (ms): a period is at least about as long. */
  longestSpanMs?: number;
  /** The longest the period can be, as its ends and starts seen so far bound it (ms). */
  longestPeriodMs?: number;
  /** This period began with our first request since the refill: the window was full until then, and no other client shows. */
  fromStart?: boolean;
  /** Another process's request left where this limiter would have held it (ratelimit-shared.ts): it may have opened the next period unseen. */
  openedUnseen?: boolean;
  /** The largest Reset seen (ms), and whether it is of a period seen from its start (see periodMs()). */
  longestResetMs?: number;
  learned?: boolean;
  /** The request whose report said `remaining` (none: a refill), when it left, and when its answer came back (steps). */
  reportSeq?: number;
  reportSentStep?: number;
  heardStep?: number;
  /** Our requests let out since its refill was seen (undefined: not seen), and whether every report of this period counts no more. */
  oursSince?: number;
  /** Ours answered after the period before may have ended (or still out at the refill): the server may count them in this one. */
  oursCarried?: number;
  /** The period ended after this: a report's request left, plus its Reset less the second of its rounding. */
  endAfter?: number;
  oursAlone?: boolean;
  /** The fewest requests of another client its reports of this period show (counted beyond ours let out since its refill), and of the period before (undefined: not seen from its refill). */
  othersSeen?: number;
  othersBefore?: number;
  /** Another client may have spent it unseen: a report of another window settled *maybe* as *none* within the share it leaves this one; its own next period's first report says. */
  unsettled?: boolean;
  /** Ours, alone, kept a shorter window's slot back at this period's start (slotsKept()): its reports say whether another client took it. */
  kept?: boolean;
  /** This period's reports of admitted requests, and the period's before it (a refill seen early may not be the server's yet). */
  reports: Report[];
  before: Report[];
}

/** What an admitted request's answer said of a window: its Remaining, and the request (when it left, in steps). */
export interface Report {
  reportSeq: number;
  reportSentStep: number;
  remaining: number;
  /** When its answer came back (step). */
  heardStep: number;
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
 * A report of `w`'s period counts more than this limiter can have had counted: since its newest
 * report, or for a refusal (429, its request left at step `refusedSentStep`: the server did not count
 * it), since any report of the period heard before that request left (a newer one may have come back
 * while it was out and explain nothing of what it met).
 */
export function countsMore(w: Window, remaining: number, sent: readonly Sent[], refusedSentStep?: number) {
  const uncounted = (r: { heardStep?: number }) =>
    refusedSentStep !== undefined && refusedSentStep > (r.heardStep ?? Number.POSITIVE_INFINITY) ? 1 : 0;
  const heard = w.reports.filter((r) => refusedSentStep !== undefined && r.heardStep < refusedSentStep);
  return [w, ...heard].some((r) => remaining < r.remaining - countedSince(sent, r) + uncounted(r));
}

/**
 * Requests sent before `w`'s newest report's and answered after it left, their answers of another
 * window: the server may have decided them after that report's, and nothing says it did not, unless
 * the window their answer named had a larger share left than `w` then could have (the server names
 * the window closest to exhaustion).
 */
export function unplaced(sent: readonly Sent[], w: Window): number {
  const after = w.reportSentStep ?? Number.NEGATIVE_INFINITY;
  const most = w.limit ? (w.remaining - 1) / w.limit : Number.POSITIVE_INFINITY;
  return sent.filter(
    (s) =>
      !s.refused && s.seq < w.seq && s.named !== w && (s.doneStep ?? 0) > after && !((s.share ?? -1) > most),
  ).length;
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

/**
 * A limiter's first report (no window known yet) counts more than every request it let out (`sent`,
 * a refused one's own not counted): another client spent the window, or an mtg run before this one
 * did, and its requests since are unseen as another's would be (a fresh process beside a running one).
 */
export function firstShowsOthers(
  windows: Map<string, Window>,
  limit: number | undefined,
  remaining: number,
  sent: number,
  refused: boolean,
): boolean {
  return windows.size === 0 && limit !== undefined && limit - remaining > sent - (refused ? 1 : 0);
}

/**
 * Slots of `w` ours leave to another client that surely shares the key: the last one (its next
 * request), and one more where a longer window needs no more than the rest of each of `w`'s periods
 * (3 a second beside the Free plan's 20 a minute), which costs nothing there: a new process's first
 * request, sent blind, then finds room (cron starts one as the run before ends, whose last request
 * had taken the last slot). A longer window's rate is bounded by its longest Reset less the second of
 * its rounding, not by a guessed period; a per-second key of a longer window's allowance is its last second.
 */
export function leftToOthers(w: Window, windows: Map<string, Window>): number {
  if (!w.limit || windows.has(windowKey(w.limit, Number.POSITIVE_INFINITY))) return 1;
  const longer = [...windows.values()].filter((x) => x.limit && (x.longestResetMs ?? 0) > periodMs(w) + 1000);
  const need = (x: Window) => (x.limit! * periodMs(w)) / (x.longestResetMs! - 1000);
  return longer.some((x) => need(x) <= w.limit! - 2) ? 2 : 1;
}

/**
 * An answer came back to a request let out since `w`'s refill: it said what others left, of `w`, or of
 * a window closer to exhaustion (the server names that one), and `w` has at least its share left (beside
 * a sure other, no more: shareCap()). Until then a refilled window's requests go one at a time. Reports
 * name the per-second window at a 10 s window's start: that held ours one at a time for most of it.
 */
export function heardSince(sent: readonly Sent[], w: Window): boolean {
  return sent.some((s) => s.seq > w.seq && s.doneStep !== undefined);
}

/**
 * Slots of `w` ours leave to other clients. Beside a sure one: its last, and a newcomer's
 * (leftToOthers()), unless ours `spread` the binding window's allowance, which leaves it room. Alone
 * (answers in order, nothing spread): one at the start of a longer window's period they filled, to a
 * client refused meanwhile, unseen (a 429 counts in no window), which comes back at that refill, as
 * its Retry-After names it, within a second and its jitter, where ours, first in each of `w`'s
 * periods, took every slot before it: a cron run starved for minutes (#31). That costs no period of
 * `w` where the longer window's allowance is not a multiple of `w`'s (its last period of `w` has a
 * slot to spare: 20 a minute at 3 a second go 2+3+3+3+3+3+3), nor its end, once its period is known
 * from a whole one seen (longestPeriodMs): the kept slot puts off its first report by a period of `w`.
 * The longer window is marked (`kept`): its first request goes alone until a report names it
 * (ratelimit.ts), so that its count shows whether another client took the slot.
 */
export function slotsKept(
  w: Window,
  windows: Map<string, Window>,
  others: 'none' | 'maybe' | 'sure',
  spread: boolean,
  reordered: boolean,
  now: number,
): number {
  if (others === 'sure') return spread ? 0 : leftToOthers(w, windows);
  if (spread || reordered || !w.limit) return 0;
  const start = w.startedAt ?? now;
  const refilled = [...windows.values()].find(
    (x) =>
      x.fromStart &&
      x.longestPeriodMs !== undefined &&
      x.limit! % w.limit! !== 0 &&
      periodMs(x) > periodMs(w) &&
      start < x.since + periodMs(w),
  );
  if (refilled) refilled.kept = true;
  return refilled ? 1 : 0;
}

/**
 * The longer window `w` is the last second of: a per-second key of its allowance (20/10s names its
 * last second with Reset 1). Its end is the longer one's, which its own bound would hold ours past.
 */
export function lastSecondOf(w: Window, windows: Map<string, Window>): Window | undefined {
  const longer =
    w.limit && periodMs(w) <= 1000 ? windows.get(windowKey(w.limit, Number.POSITIVE_INFINITY)) : undefined;
  return longer === w ? undefined : longer;
}
/**
 * A report of `w`, its request sent at `sentAt`, its end's bound `bound`: of a longer window's last
 * second (lastSecondOf()) in that one's period (sent after its refill, its bound within `slackMs` of
 * the longer's: a second of Reset's rounding and the margin), it bounds the longer's end as its own do.
 */
export function lastSecondBound(
  w: Window,
  windows: Map<string, Window>,
  sentAt: number,
  bound: number,
  slackMs: number,
) {
  const longer = lastSecondOf(w, windows);
  if (!longer || sentAt < longer.since || longer.resetAt === undefined || longer.estimated) return;
  if (bound >= longer.resetAt - slackMs) longer.resetAt = Math.min(longer.resetAt, bound);
}

/** Requests of `sent` the report of request `seq` does not count: sent after it, or still in flight. */
export function used(sent: readonly Sent[], seq: number): number {
  return sent.filter((s) => !s.refused && (s.doneStep === undefined || s.seq > seq)).length;
}

/** Another process's request left where this limiter would have held it (ratelimit-shared.ts). */
export function openedUnseen(windows: Iterable<Window>): void {
  for (const w of windows) w.openedUnseen = true;
}

/** The longest period of `windows` (ms; a second when none is known). */
export function longestPeriodMs(windows: Iterable<Window>): number {
  return Math.max(1000, ...[...windows].map(periodMs));
}

/** The earliest send (step) after which an answered request may still count for `w`'s reports, this period's or the one's before. */
function oldestMark(w: Window): number {
  return Math.min(w.reportSentStep ?? 0, ...w.before.map((r) => r.reportSentStep));
}

/** The requests of `sent` still of use to some window's count: in flight, or sent or answered after its report (or its period before's) left. */
export function stillOfUse(sent: Sent[], windows: Iterable<Window>): Sent[] {
  const marks = [...windows].map((w) => ({ seq: w.seq, mark: oldestMark(w) }));
  return sent.filter(
    (s) => s.doneStep === undefined || marks.some((w) => s.seq > w.seq || s.doneStep! > w.mark),
  );
}

/** A window seen to refill (at `now`): all its allowance left, its reports so far now the period before's. */
export function refill(w: Window, seq: number, now: number, mark: Partial<Window>, carried = 0): void {
  const fresh = {
    oursSince: 0,
    oursCarried: carried,
    oursAlone: true,
    othersSeen: 0,
    othersBefore: w.othersSeen,
    kept: false,
  };
  w.endAfter = undefined;
  Object.assign(w, { remaining: w.limit, seq, since: now, before: w.reports, reports: [], ...fresh }, mark);
}

/** A new period begins (`fromRefill`: the first report since a refill this limiter saw; else not seen whole). */
export function newPeriod(w: Window, fromRefill: boolean): void {
  w.reports = [];
  w.endAfter = undefined;
  if (!fromRefill) w.oursAlone = false;
}

/**
 * A report of `w`'s period (`refused`: a 429, no other kept). It is explained by our own requests
 * when it counts no more than we let out since the period's refill; a 429 or a larger count is not.
 * The period ends after `endAfter` (its request's send plus Reset less the second of its rounding).
 */
export function noteReport(w: Window, report: Report, refused: boolean, endAfter: number): void {
  w.endAfter = Math.max(w.endAfter ?? Number.NEGATIVE_INFINITY, endAfter);
  if (!refused) w.reports.push(report);
  const counted = w.limit === undefined ? Number.POSITIVE_INFINITY : w.limit - report.remaining;
  if (refused || counted > (w.oursSince ?? Number.NEGATIVE_INFINITY)) w.oursAlone = false;
  if (!refused && w.oursSince !== undefined)
    w.othersSeen = Math.max(w.othersSeen ?? 0, counted - w.oursSince - (w.oursCarried ?? 0));
}

/**
 * The period ends (`used`: requests counted since its newest report): it was ours alone when it was
 * seen from its refill, reported, every report explained by our own requests, and it ended with a
 * slot left that we left to another client, which took none of it. Only a period of the longest
 * window says so, and one longer than a 429's pause (Retry-After, whole seconds, plus its jitter),
 * which may outlast a per-second window's refill and its whole next period while the other waits.
 */
export function oursAlone(w: Window, used: number, windows: Map<string, Window>): boolean {
  if (periodMs(w) <= 1000 + RETRY_AFTER_JITTER_MAX_MS) return false;
  for (const other of windows.values()) if (periodMs(other) > periodMs(w)) return false;
  return w.oursAlone === true && w.reports.length > 0 && w.remaining - used >= 1;
}

/**
 * A round trip of `ms` seen: the fastest one (returned). One under half the fastest before shows that one slow for a
 * reason of its own (a new connection's handshake, a cold server deciding late in it: 218 ms, then
 * 9), not the legs' jitter: the bounds taken that much early (a report's end less the fastest round
 * trip, an end from a period's start) move later by what it shrank. They otherwise left the window's
 * end early for good, and the next request, this process's or another's that read its log, met the
 * window still full.
 */
export function noteRoundTrip(windows: Iterable<Window>, fastestMs: number, ms: number): number {
  if (!(ms < fastestMs)) return fastestMs;
  if (Number.isFinite(fastestMs) && ms < fastestMs / 2)
    for (const w of windows) {
      if (w.resetAt !== undefined && !w.estimated) w.resetAt += fastestMs - ms;
      if (w.endBy !== undefined) w.endBy += fastestMs - ms;
    }
  return ms;
}

/** `w`'s period began by `at` (a request's decision, as a report's bound): it ends within its period of that. */
export function endsBy(w: Window, at: number): void {
  if (w.resetAt !== undefined) w.resetAt = Math.min(w.resetAt, at + periodMs(w));
}

/** When the window refills: the earliest of its reports' bounds and the one its start gives. */
export function endOf(w: Window): number | undefined {
  const end = Math.min(w.resetAt ?? Number.POSITIVE_INFINITY, w.endBy ?? Number.POSITIVE_INFINITY);
  return end === Number.POSITIVE_INFINITY ? undefined : end;
}

/**
 * An answer to a request sent at `sentAt`, since the window's refill: the server decided it in the
 * new period, so that period began before the answer came back and ends within its longest length
 * of that (less the fastest round trip, as a report's bound).
 */
export function noteStart(w: Window, sentAt: number, receivedAt: number, fastestMs: number): void {
  if (
    !w.fromStart ||
    w.unsettled ||
    w.startedAt === undefined ||
    sentAt < w.startedAt ||
    w.endBy !== undefined
  )
    return;
  if (w.longestPeriodMs !== undefined) w.endBy = receivedAt + w.longestPeriodMs - fastestMs;
}

/**
 * The period ends (before refill(); `used`: requests counted since its newest report). One seen
 * whole (its first request the first sent since a refill the window was full until, no other client
 * shown: `fastestMs` given) began after that request left and ended by its bound (plus the fastest
 * round trip it takes off): the period is no longer. The next is seen whole if this one ends full.
 */
export function closePeriod(w: Window, used: number, fastestMs?: number): void {
  const full = w.remaining - used <= 0;
  const end = endOf(w);
  // A span past two periods measured a late answer (a suspended laptop, a stepped clock), not the window.
  if (w.startedAt !== undefined && end !== undefined && !w.estimated && end - w.startedAt <= 2 * periodMs(w))
    w.longestSpanMs = Math.max(w.longestSpanMs ?? 0, end - w.startedAt);
  if (
    fastestMs !== undefined &&
    w.fromStart &&
    w.startedAt !== undefined &&
    end !== undefined &&
    !w.estimated
  )
    w.longestPeriodMs = Math.min(
      w.longestPeriodMs ?? Number.POSITIVE_INFINITY,
      end + fastestMs - w.startedAt,
    );
  Object.assign(w, {
    resetAt: undefined,
    startedAt: undefined,
    endBy: undefined,
    fromStart: full && fastestMs !== undefined && !w.openedUnseen,
    openedUnseen: undefined,
  });
}

/**
 * A request let out (at `now`): the first of a period dates its start; one let out once the period
 * may be over (its start plus its period as Reset shows it) may open the next at the server, which
 * the bound from this one's start does not cover.
 */
export function noteSend(w: Window, now: number): void {
  if (w.startedAt !== undefined && now >= w.startedAt + periodMs(w)) w.endBy = undefined;
  w.startedAt ??= now;
  if (w.oursSince !== undefined) w.oursSince++;
}

/** The least time `requests` more take under `w` (ms), `used` of its count since its newest report; undefined with no allowance known. */
export function leastMs(w: Window, requests: number, now: number, used: number): number | undefined {
  if (!w.limit) return undefined;
  const firstRefill = Math.max(0, (endOf(w) ?? now) - now);
  const room = firstRefill > 0 ? Math.max(0, w.remaining - used) : w.limit;
  if (requests <= room) return 0;
  return firstRefill + (Math.ceil((requests - room) / w.limit) - 1) * periodMs(w);
}

/** The least time `requests` more take under `windows` (ms; undefined: none known), `used(w)` of each one's count since its newest report. */
export function leastMsOfAll(
  windows: Map<string, Window>,
  requests: number,
  now: number,
  used: (w: Window) => number,
): number | undefined {
  if (windows.size === 0) return undefined;
  let slowest = 0;
  for (const w of windows.values()) slowest = Math.max(slowest, leastMs(w, requests, now, used(w)) ?? 0);
  return slowest;
}

/** Two windows of one allowance are told apart by their scale: per second, or longer (spec section 8). */
export function windowKey(limit: number | undefined, reset: number): string {
  return `${limit ?? '?'}/${reset <= 1 ? 's' : 'long'}`;
}

/**
 * When `w`, with no end known, has surely refilled: a period after the newest answer (at
 * `lastDoneAt`), when answers came since its refill (the server decided each before its answer came
 * back, in a period that ended within a period of that). One no report names, and that does not
 * fill, gets no end otherwise, and kept counting requests of long ago. Those still out count anyway.
 */
export function staleAt(w: Window, lastDoneAt: number): number {
  return w.since < lastDoneAt ? lastDoneAt + periodMs(w) : Number.POSITIVE_INFINITY;
}

/**
 * `w`'s period for spreading its allowance: a window not named at its period's start (the per-second
 * one is closer to exhaustion then) shows a Reset shorter than its period, and a period lasts about
 * as long as from our first request in it to its end's bound.
 */
const spreadMs = (w: Window) =>
  w.learned ? Math.max(periodMs(w), w.longestSpanMs ?? 0) : (w.longestSpanMs ?? periodMs(w));
/** Requests per ms `w` allows indefinitely (Infinity: no allowance known); `ms`: its period. */
const rateOf = (w: Window, ms = periodMs(w)) => (w.limit ? w.limit / ms : Number.POSITIVE_INFINITY);

/**
 * A shorter window than `b` whose last slot, kept back for another client, would starve `b`: the rest
 * of each of its periods, found over only at its end's bound plus `overheadMs` (the margin and a round
 * trip), carries no more than `b`'s rate (3/1s beside 20/10s: 2 in 1.07 s, where 20/10s needs 2 a
 * second; the Free plan's 20 a minute needs a sixth of that). Ours spread at `b`'s rate leave one of
 * its slots to the other anyway (at most 2 of ours a second).
 */
function starves(w: Window, b: Window, overheadMs: number): boolean {
  if (w === b || !w.limit || periodMs(w) >= periodMs(b)) return false;
  const rate = rateOf(b, spreadMs(b));
  return (w.limit - 1) / (periodMs(w) + overheadMs) <= rate && Math.ceil(periodMs(w) * rate) < w.limit;
}

/**
 * The window whose rate binds (the lowest; its period known: a refill seen), when a shorter window's
 * last slot, kept back for another client, would starve it, and that client spent at most one slot of
 * its period before (a light one: a script, mtg watch). Ours then go no faster than its rate, its
 * allowance spread over its period (spreadAt()), and no window's last slot is kept back: the other's
 * request finds room between ours.
 */
export function binding(windows: Iterable<Window>, overheadMs: number): Window | undefined {
  const all = [...windows];
  const slowest = all.reduce<Window | undefined>((a, w) => (!a || rateOf(w) < rateOf(a) ? w : a), undefined);
  const heavy = slowest?.othersBefore === undefined || slowest.othersBefore > 1;
  if (!slowest || !(slowest.learned || slowest.longestSpanMs) || heavy) return undefined;
  return all.some((w) => starves(w, slowest, overheadMs)) ? slowest : undefined;
}

/**
 * Whether `w` is a shorter window whose last slot ours spread at `spread`'s rate leave to a light
 * other client (see starves()): its count holds at most one of that client's requests.
 */
export function starved(w: Window, spread: Window | undefined, overheadMs: number): boolean {
  return spread !== undefined && starves(w, spread, overheadMs);
}

/**
 * How many of ours go at once at the start of `spread`'s period while no other client shows: the
 * smallest allowance of the windows it starves (3/1s beside 20/10s: 3), which their first period
 * spends as soon as it would alone, and whose end the first answer then bounds.
 */
export function burst(windows: Iterable<Window>, spread: Window | undefined, overheadMs: number): number {
  return Math.min(...starving(windows, spread, overheadMs).map((w) => w.limit!), Number.POSITIVE_INFINITY);
}

/** The windows ours spread at `spread`'s rate starve (see starves()). */
export function starving(
  windows: Iterable<Window>,
  spread: Window | undefined,
  overheadMs: number,
): Window[] {
  return [...windows].filter((w) => starved(w, spread, overheadMs));
}

/** How ours spread beside a sure other, answers reordered (RecentRequests.pace()): the least gap between them, and the way out's spread. */
export interface Pace {
  gapMs: number;
  landMs?: number;
}

/**
 * When `w`'s next request may go, its allowance spread over its period (`counted`: ours since its
 * newest report): the k-th of a period (another client's counted too) k times its period over its
 * allowance after our first (the first `burst` at once), or, once its end is bounded, early enough
 * that the rest fit before it; `pace.gapMs`, the least gap between ours. Given `pace.landMs`, the
 * last goes by the end's lower bound (`endAfter`) less that spread of the way out, so that it lands
 * in this period: sent to fit before the upper bound, it often opened the next (F3: 55 of 161 periods
 * a slot short). Undefined: at once (the period's first).
 */
export function spreadAt(
  w: Window,
  counted: number,
  burst = 1,
  pace: Pace = { gapMs: 0 },
): number | undefined {
  if (w.startedAt === undefined || !w.limit) return undefined;
  const gap = Math.max(spreadMs(w) / w.limit, pace.gapMs);
  const k = w.limit - w.remaining + counted;
  const land = pace.landMs === undefined || w.endAfter === undefined ? Infinity : w.endAfter - pace.landMs;
  return Math.min(
    w.startedAt + Math.max(0, k - burst + 1) * gap,
    Math.min(endOf(w) ?? Number.POSITIVE_INFINITY, land + gap) - (w.limit - k) * gap,
  );
}

/** Requests per second `windows` allow indefinitely (undefined before any allowance is known). */
export function sustainableRate(windows: Iterable<Window>): number | undefined {
  const rates = [...windows].map((w) => rateOf(w) * 1000);
  return rates.some(Number.isFinite) ? Math.min(...rates) : undefined;
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
