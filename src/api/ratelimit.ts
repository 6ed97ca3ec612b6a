// Client-side pacing from RateLimit-Limit/Remaining/Reset and Retry-After, so that long exports and
// bulk updates stay under the server's windows instead of meeting 429. One limiter is shared by every
// request of a command; concurrent callers take turns through acquire().

import { RateLimitExhaustedError } from './errors.js';

export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  /** Seconds until the reported window refills. */
  reset?: number;
}

export interface WaitInfo {
  ms: number;
  reason: 'window' | 'retry-after';
  /** The window's allowance, to name it for people ("the window of 300 requests"). */
  limit?: number;
}

/** A small margin so that we do not arrive a hair before a window that rounds down. */
export const RESET_MARGIN_MS = 50;

/** Above this, a RateLimit-Reset is a Unix time (as X-RateLimit-Reset is on some APIs), not a delay. */
const EPOCH_RESET_FROM = 1_000_000_000;

function resetSeconds(reset: number | undefined, now: number): number | undefined {
  if (reset === undefined || reset < EPOCH_RESET_FROM) return reset;
  return Math.max(0, reset - now / 1000);
}

export function parseRateLimitHeaders(
  get: (name: string) => string | undefined,
  now: number = Date.now(),
): RateLimitHeaders {
  const num = (name: string) => {
    const raw = get(name);
    if (raw === undefined) return undefined;
    const value = Number.parseFloat(raw);
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  return {
    limit: num('ratelimit-limit'),
    remaining: num('ratelimit-remaining'),
    reset: resetSeconds(num('ratelimit-reset'), now),
  };
}

/** Retry-After is delta-seconds or an HTTP-date (RFC 9110 section 10.2.3). Returns seconds. */
export function parseRetryAfter(raw: string | undefined, now: number): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number.parseFloat(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}

export interface RateLimiterOptions {
  /** The most a command may wait on rate limits in all (--max-wait). */
  maxWaitMs: number;
  now?: () => number;
  /** Sleeps `ms`; may end early when `cancel` aborts (the limiter learned something new). */
  sleep?: (ms: number, cancel?: AbortSignal) => Promise<void>;
  onWait?: (info: WaitInfo) => void;
}

export interface Ticket {
  seq: number;
  /** When the request was let out (the limiter's clock); lets observe() tell which window it fell in. */
  at?: number;
  /** The caller's place in the queue: a retry passes it back to acquire() to keep its turn. */
  order?: number;
}

/** A request let out: the windows count it until the server's report covers it or it was refused. */
interface Sent {
  seq: number;
  at: number;
  doneAt?: number;
  /** Answered 429: the server did not count it. */
  refused?: boolean;
}

/**
 * One of the server's windows, known by its allowance. The server reports only the window closest
 * to exhaustion on each response, so each window is remembered from its own last report and counts
 * every request sent since then itself.
 */
interface Window {
  /** Undefined when the server sent Remaining and Reset without a Limit: honoured until it refills, then forgotten. */
  limit: number | undefined;
  /** Remaining as of the report (or the whole allowance once the window refilled). */
  remaining: number;
  /** Requests sent after this one's report count against `remaining`... */
  reportSeq: number;
  /** ...unless they were answered before the window refilled at `since`. */
  since: number;
  /** When the window refills: the earliest bound its reports gave, or an estimate after a refill. */
  resetAt?: number;
  /** resetAt is the limiter's own guess (after a refill), not a bound from the server's reports. */
  estimated?: boolean;
  /** resetAt came from this window's reports (not an estimate), and the last one's Remaining. */
  reported?: { bound: number; remaining: number };
  /** The window's length: its longest Reset seen, or from its first request to its earliest bound. */
  periodMs: number;
  /** When the first request of the window's current period left, if known. */
  startedAt?: number;
}

interface Waiter {
  order: number;
  resolve: (ticket: Ticket) => void;
  reject: (err: unknown) => void;
}

/** How long a queued request must wait (ms), or until the limiter hears back (`ms` undefined). */
type Hold = { ms: number | undefined; reason: WaitInfo['reason']; limit?: number; estimated?: boolean };

/** A wait that ends within this of the one last announced is the same wait. */
const ANNOUNCE_SLACK_MS = 100;

/** Done requests kept after no window counts them, so that a window learned late still can. */
const KEEP_DONE = 64;

/**
 * Admits requests in their callers' order, each only when every window known so far has room for
 * it after counting the requests already sent and not yet covered by a report. Until the first
 * response says what the windows are, one request goes out alone. A 429 pauses everyone for its
 * Retry-After, and the refused request keeps its place ahead of later ones (acquire(order)).
 */
export class RateLimiter {
  /** Keyed by allowance; the window the server reported without one is under `undefined`. */
  private readonly windows = new Map<number | undefined, Window>();
  private sent: Sent[] = [];
  private seq = 0;
  private orders = 0;
  private pausedUntil = 0;
  private heardBack = false;
  private firstAt: number | undefined;
  private announcedUntil = Number.NEGATIVE_INFINITY;
  private rttMs = 0;
  private queue: Waiter[] = [];
  private pumping = false;
  private changed = new AbortController();
  private waitedMs = 0;
  private readonly now: () => number;
  private readonly sleep: (ms: number, cancel?: AbortSignal) => Promise<void>;

  constructor(private readonly options: RateLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? cancellableSleep;
  }

  /** A new --max-wait allowance: a long-running command (mtg watch) grants one per unit of work. */
  resetWaited(): void {
    this.waitedMs = 0;
  }

  /**
   * Wait for our turn and for room in every window, then count the request as sent. `order` (from
   * an earlier ticket) puts a retried request back in its place, ahead of requests queued after it.
   */
  acquire(order?: number): Promise<Ticket> {
    return new Promise<Ticket>((resolve, reject) => {
      const waiter: Waiter = { order: order ?? ++this.orders, resolve, reject };
      let at = this.queue.length;
      while (at > 0 && this.queue[at - 1]!.order > waiter.order) at--;
      this.queue.splice(at, 0, waiter);
      void this.pump();
    });
  }

  /**
   * Apply a response's headers to the window they describe (by its allowance), unless a newer
   * request's report of that window was applied already.
   *
   * Each report bounds the window's end from above: the server decided at or before `receivedAt`,
   * so the window refills no later than receivedAt + Reset. The earliest of a window's bounds is the
   * tightest (Reset is whole seconds); keeping only the latest report's bound made a batch wait out
   * the window plus the time it took to send its requests (bench figure e). A report is of the same
   * window when it shows less remaining than the last one and its request left before that bound;
   * otherwise the window has refilled and the report replaces the bound.
   */
  observe(ticket: Ticket, headers: RateLimitHeaders, receivedAt = this.now()): void {
    this.settle(ticket, receivedAt);
    this.heardBack = true;
    const { remaining, reset } = headers;
    if (remaining !== undefined && reset !== undefined)
      this.report(ticket, headers.limit, remaining, reset, receivedAt);
    this.notify();
  }

  /** The request ended without a usable report (a network error, a timeout): it no longer waits. */
  settle(ticket: Ticket, at = this.now()): void {
    const sent = this.sent.find((s) => s.seq === ticket.seq);
    if (sent && sent.doneAt === undefined) {
      sent.doneAt = at;
      if (ticket.at !== undefined) this.rttMs = at - ticket.at;
    }
    this.notify();
  }

  /** Requests let out and not yet settled (answered, failed or refused). */
  inFlight(): number {
    return this.sent.filter((s) => s.doneAt === undefined).length;
  }

  /** A 429: the server did not count the request; nobody sends until Retry-After has passed. */
  refused(ticket: Ticket, retryAfterSeconds: number): void {
    const sent = this.sent.find((s) => s.seq === ticket.seq);
    if (sent) sent.refused = true;
    this.pause(retryAfterSeconds);
  }

  /** Nobody sends until `seconds` from now. */
  pause(seconds: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + seconds * 1000);
    this.notify();
  }

  /**
   * The least time `requests` more requests take under the windows seen so far (ms), or undefined
   * while no window is known. The sustainable-rate arithmetic: what each window has left now, then
   * its whole allowance once per period; the slowest window decides.
   */
  minimumMs(requests: number): number | undefined {
    if (this.windows.size === 0) return undefined;
    const now = this.now();
    let slowest = 0;
    for (const w of this.windows.values()) {
      // A window without a known allowance says nothing past its current period.
      if (w.limit === undefined || w.limit <= 0) continue;
      const refilled = w.resetAt !== undefined && now >= w.resetAt;
      const room = refilled ? w.limit : Math.max(0, w.remaining - this.used(w));
      if (requests <= room) continue;
      const beyond = requests - room;
      const firstRefill = refilled || w.resetAt === undefined ? 0 : w.resetAt - now;
      // The last refill's requests go out at its start: periods after the first refill.
      slowest = Math.max(slowest, firstRefill + (Math.ceil(beyond / w.limit) - 1) * w.periodMs);
    }
    return slowest;
  }

  /**
   * Requests per second the windows seen so far allow indefinitely: the slowest allowance over its
   * period (undefined before any window is known).
   */
  sustainableRate(): number | undefined {
    let rate: number | undefined;
    for (const w of this.windows.values()) {
      if (w.limit === undefined || w.limit <= 0 || w.periodMs <= 0) continue;
      rate = Math.min(rate ?? Number.POSITIVE_INFINITY, w.limit / (Math.max(w.periodMs, 1000) / 1000));
    }
    return rate;
  }

  /**
   * The time one request takes at the sustainable rate (ms): an estimate's pace, slower than a
   * short window's burst makes the recent pace look (undefined before any window is known).
   */
  sustainableMsPerRequest(): number | undefined {
    const rate = this.sustainableRate();
    return rate === undefined || rate <= 0 ? undefined : 1000 / rate;
  }

  private report(
    ticket: Ticket,
    limit: number | undefined,
    remaining: number,
    reset: number,
    receivedAt: number,
  ): void {
    // The server decided between sending and receiving; taken at the midpoint (the request's
    // way out is rarely the longer half: the answer carries the body), but never more than the
    // margin before the answer: the margin then covers any split of the round trip. A way out longer
    // than the way back by more than twice the margin (a new connection, a busy client between the
    // ticket and the write) made the window end later than the midpoint said, and met a 429.
    const decidedAt =
      ticket.at === undefined
        ? receivedAt
        : Math.max((ticket.at + receivedAt) / 2, receivedAt - RESET_MARGIN_MS);
    const bound = decidedAt + reset * 1000;
    let w = this.windows.get(limit);
    if (!w) {
      // Learned late (the server reports only the window closest to exhaustion): it began with the
      // command's first request, as far as this command can tell.
      w = {
        limit,
        remaining,
        reportSeq: ticket.seq,
        since: Number.NEGATIVE_INFINITY,
        periodMs: 0,
        startedAt: this.firstAt,
      };
      this.windows.set(limit, w);
    } else {
      // Sent before the window refilled: its report is most likely of the window that ended.
      if (ticket.at !== undefined && ticket.at < w.since) return;
      if (ticket.seq <= w.reportSeq) {
        // Answered after a newer request's report: the server decided it later (it came by another
        // connection, or its answer was slower), and within one window the server's count only
        // grows, so a lower Remaining is the later count. Taken as it is: requests counted twice
        // meanwhile make the limiter wait a little more, never send into a full window. A report is
        // of the window before when its request left before this period's first one, or when no
        // moment the server could have decided it (between sending and the answer) puts that
        // window's end where this one ends (Reset is whole seconds, rounded up).
        const sentAt = ticket.at ?? receivedAt;
        const ofThisPeriod =
          (w.startedAt === undefined || sentAt >= w.startedAt) &&
          (w.resetAt === undefined ||
            (w.resetAt >= sentAt + reset * 1000 - 1000 - RESET_MARGIN_MS &&
              w.resetAt <= receivedAt + reset * 1000 + RESET_MARGIN_MS));
        if (ofThisPeriod && remaining < w.remaining) w.remaining = remaining;
        return;
      }
    }
    w.periodMs = Math.max(w.periodMs, reset * 1000);
    const prior = w.reported;
    const sameWindow =
      prior !== undefined &&
      ticket.at !== undefined &&
      ticket.at < prior.bound &&
      remaining < prior.remaining;
    w.resetAt = sameWindow ? Math.min(prior.bound, bound) : bound;
    w.reported = { bound: w.resetAt, remaining };
    w.estimated = false;
    if (w.startedAt !== undefined) w.periodMs = Math.max(w.periodMs, w.resetAt - w.startedAt);
    w.remaining = remaining;
    w.reportSeq = ticket.seq;
    w.since = Number.NEGATIVE_INFINITY;
  }

  /**
   * Requests the window's report may not count: sent after it, or sent before it and still
   * unanswered; not refused, not answered before the window refilled.
   */
  private used(w: Window): number {
    let n = 0;
    for (const s of this.sent) if (this.counts(w, s)) n++;
    return n;
  }

  private counts(w: Window, s: Sent): boolean {
    if (s.refused || (s.doneAt !== undefined && s.doneAt < w.since)) return false;
    // Sent after the report's request, or before it and not answered yet: the server may have
    // decided that one after the report's (requests overtake each other on two connections).
    return s.seq > w.reportSeq || s.doneAt === undefined;
  }

  /**
   * Windows whose end and margin have passed have their whole allowance again, from the next
   * request on. Refilled at the bare end, a request asked for within the margin (the next phase of
   * a sync, a report waking the queue) went at once, before a window that ends a little later than
   * estimated, and met a 429: the margin held only for a queue that slept through it.
   */
  private refill(now: number): void {
    for (const [key, w] of this.windows) {
      if (w.resetAt === undefined || now < w.resetAt + RESET_MARGIN_MS) continue;
      // Without its allowance a refilled window cannot be counted: the next report says anew.
      if (w.limit === undefined) {
        this.windows.delete(key);
        continue;
      }
      w.since = w.resetAt;
      w.remaining = w.limit;
      w.reportSeq = 0;
      w.resetAt = undefined;
      w.estimated = undefined;
      w.reported = undefined;
      w.startedAt = undefined;
    }
  }

  /** What keeps the next request back, or undefined when it may go now. */
  private hold(now: number): Hold | undefined {
    if (this.pausedUntil > now) return { ms: this.pausedUntil - now, reason: 'retry-after' };
    this.refill(now);
    const inFlight = this.sent.some((s) => s.doneAt === undefined);
    // Nothing known yet: one request finds out what the windows are before others follow it.
    if (!this.heardBack && inFlight) return { ms: undefined, reason: 'window' };
    let hold: Hold | undefined;
    for (const w of this.windows.values()) {
      if (w.remaining - this.used(w) > 0) continue;
      // Full, with no end known: its requests are in flight and their reports will say. With none in
      // flight and no report to come (answered after an earlier refill, their reports were of the
      // window before), it is given an end, so that the next refill stops counting them.
      if (w.resetAt === undefined && !inFlight) {
        w.resetAt = now + Math.max(w.periodMs, 1000);
        w.estimated = true;
      }
      const ms = w.resetAt === undefined ? undefined : w.resetAt - now + RESET_MARGIN_MS;
      if (!hold || ms === undefined || (hold.ms !== undefined && ms > hold.ms))
        hold = {
          ms: hold && hold.ms === undefined ? undefined : ms,
          reason: 'window',
          limit: w.limit,
          estimated: w.estimated,
        };
    }
    return hold;
  }

  private send(now: number): Ticket {
    const ticket: Ticket = { seq: ++this.seq, at: now };
    this.firstAt ??= now;
    this.sent.push({ seq: ticket.seq, at: now });
    // A refilled window's new period starts when the server sees its first request.
    for (const w of this.windows.values()) {
      if (w.startedAt === undefined) w.startedAt = now;
      if (w.resetAt === undefined && w.periodMs > 0) {
        w.resetAt = now + w.periodMs + this.rttMs;
        w.estimated = true;
      }
    }
    this.prune();
    return ticket;
  }

  private prune(): void {
    const done = this.sent.filter(
      (s) => s.doneAt !== undefined && ![...this.windows.values()].some((w) => this.counts(w, s)),
    );
    if (done.length <= KEEP_DONE) return;
    const drop = new Set(done.slice(0, done.length - KEEP_DONE));
    this.sent = this.sent.filter((s) => !drop.has(s));
  }

  private notify(): void {
    this.changed.abort();
    this.changed = new AbortController();
  }

  /** Lets queued requests out in order. Bounded: each pass sends, fails a caller or waits. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const now = this.now();
        const hold = this.hold(now);
        if (!hold) {
          const waiter = this.queue.shift()!;
          waiter.resolve({ ...this.send(now), order: waiter.order });
          continue;
        }
        if (hold.ms !== undefined && this.waitedMs + hold.ms > this.options.maxWaitMs) {
          this.queue
            .shift()!
            .reject(
              new RateLimitExhaustedError(
                `Still rate-limited: ${holdText(hold, hold.ms)}, beyond --max-wait ` +
                  `${Math.round(this.options.maxWaitMs / 1000)} s (waited ${Math.round(this.waitedMs / 1000)} s in all)`,
              ),
            );
          continue;
        }
        const changed = this.changed.signal;
        if (hold.ms === undefined) {
          await new Promise<void>((resolve) =>
            changed.addEventListener('abort', () => resolve(), { once: true }),
          );
          continue;
        }
        // Once per wait, not again each time a report wakes the queue to look at it anew.
        if (Math.abs(now + hold.ms - this.announcedUntil) > ANNOUNCE_SLACK_MS) {
          this.announcedUntil = now + hold.ms;
          this.options.onWait?.({ ms: hold.ms, reason: hold.reason, limit: hold.limit });
        }
        try {
          await this.sleep(hold.ms, changed);
        } catch (err) {
          // Interrupted (Ctrl-C): every queued caller stops.
          for (const waiter of this.queue.splice(0)) waiter.reject(err);
          return;
        }
        this.waitedMs += Math.min(hold.ms, Math.max(0, this.now() - now));
      }
    } finally {
      this.pumping = false;
    }
  }
}

/** Who says how long the wait is: the server (Retry-After, a window's Reset) or the limiter's own estimate. */
function holdText(hold: Hold, ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (hold.reason === 'retry-after') return `the server asks to wait ${seconds} s more`;
  if (hold.estimated) return `the rate-limit window should refill in about ${seconds} s (an estimate)`;
  return `the server's rate-limit window refills in ${seconds} s`;
}

function cancellableSleep(ms: number, cancel?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    cancel?.addEventListener('abort', done, { once: true });
  });
}
