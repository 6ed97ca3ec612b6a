// Client-side pacing from RateLimit-Limit/Remaining/Reset and Retry-After (the model is explained in
// docs/rate-limits.md). One limiter is shared by every request of a command; callers take turns
// through acquire().

import { type Clock, realClock } from '../shared/clock.js';
import { RateLimitExhaustedError } from './errors.js';

export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  /** Seconds until the reported window refills (spec section 8: a delay, never a time of day). */
  reset?: number;
}

export interface WaitInfo {
  ms: number;
  reason: 'window' | 'retry-after';
  /** The window's allowance, to name it for people ("the window of 300 requests"). */
  limit?: number;
}

/** Past a window's reported end before it counts as refilled: Reset is whole seconds, clocks differ. */
export const RESET_MARGIN_MS = 50;

export function parseRateLimitHeaders(get: (name: string) => string | undefined): RateLimitHeaders {
  const num = (name: string) => {
    const value = Number.parseFloat(get(name) ?? '');
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  return {
    limit: num('ratelimit-limit'),
    remaining: num('ratelimit-remaining'),
    reset: num('ratelimit-reset'),
  };
}

/** Retry-After is delta-seconds or an HTTP-date (RFC 9110 section 10.2.3). Returns seconds. */
export function parseRetryAfter(raw: string | undefined, now: number): number | undefined {
  const trimmed = raw?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number.parseFloat(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

export interface RateLimiterOptions {
  /** The most a command may wait on rate limits in all (--max-wait). */
  maxWaitMs: number;
  clock?: Clock;
  /** Sleeps `ms`, ending early when `cancel` aborts; may throw to stop every waiter (Ctrl-C). Default: the clock's. */
  sleep?: (ms: number, cancel?: AbortSignal) => Promise<void>;
  onWait?: (info: WaitInfo) => void;
}

export interface Ticket {
  seq: number;
  /** When the request was let out (the limiter's clock). */
  at?: number;
  /** The caller's place in the queue: a retry passes it back to acquire() to keep its turn. */
  order?: number;
}

/** One window the server reported, as its newest report says. */
interface Window {
  limit: number | undefined;
  /** Remaining as of the newest report of this period (the lowest: the server's count only grows). */
  remaining: number;
  /** Requests sent after the report's own count against `remaining` (in-flight ones always do). */
  seq: number;
  /** When it refills: the earliest bound its reports of this period gave, or an estimate. */
  resetAt: number | undefined;
  estimated: boolean;
  /** When this period began (its refill; -Infinity: before this limiter saw one); a report of a request sent before it is of the period before. */
  since: number;
  /** When its first request of this period left (an estimate of the period's start). */
  startedAt: number | undefined;
  /** The largest Reset seen (ms), and whether it is of a period seen from its start (see periodMs()). */
  longestResetMs: number;
  learned: boolean;
}

interface Waiter {
  order: number;
  resolve: (ticket: Ticket) => void;
  reject: (err: unknown) => void;
}

type Hold = { ms: number | undefined; reason: WaitInfo['reason']; limit?: number; estimated?: boolean };

/**
 * Admits requests in their callers' order, each when every window has room for it after counting
 * the requests sent since its newest report. A window's last slot goes alone, so that the report
 * that says it is full is of the newest request. A 429 pauses everyone for its Retry-After and the
 * refused request keeps its place at the head (acquire(order)).
 */
export class RateLimiter {
  readonly clock: Clock;
  private readonly windows = new Map<string, Window>();
  /** Requests let out and still counted by some window: in flight, or answered after its report. */
  private sent: { seq: number; done: boolean; refused: boolean }[] = [];
  private seq = 0;
  private orders = 0;
  private pausedUntil = 0;
  private heardBack = false;
  private announcedUntil = Number.NEGATIVE_INFINITY;
  private queue: Waiter[] = [];
  private pumping = false;
  private changed = new AbortController();
  private waitedMs = 0;

  constructor(private readonly options: RateLimiterOptions) {
    this.clock = options.clock ?? realClock;
  }

  /** A new --max-wait allowance: a long-running command (mtg watch) grants one per unit of work. */
  resetWaited(): void {
    this.waitedMs = 0;
  }

  /** Wait for our turn and for room in every window; `order` (from an earlier ticket) keeps a retry's place. */
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
   * A response's report, of the window closest to exhaustion. It bounds that window's end from above
   * (the server decided by `receivedAt`, taken at the round trip's midpoint within the margin); a
   * bound later than the window's by more than Reset's rounding is of a new period.
   */
  observe(ticket: Ticket, headers: RateLimitHeaders, receivedAt = this.clock.now()): void {
    this.settle(ticket);
    this.heardBack = true;
    const { limit, remaining, reset } = headers;
    if (remaining === undefined || reset === undefined) return;
    const sentAt = ticket.at ?? receivedAt;
    const bound = Math.max((sentAt + receivedAt) / 2, receivedAt - RESET_MARGIN_MS) + reset * 1000;
    // Two windows of one allowance are told apart by their scale: per second, or longer (spec section 8).
    const key = `${limit ?? '?'}/${reset <= 1 ? 's' : 'long'}`;
    const w = this.windows.get(key) ?? this.newWindow(key, limit);
    // Bounds of one period lie within a second of each other (Reset is whole seconds, rounded up).
    const slack = 1000 + RESET_MARGIN_MS;
    if (sentAt < w.since || (w.resetAt !== undefined && bound < w.resetAt - slack)) return; // a period before
    if (
      w.resetAt === undefined ||
      w.estimated ||
      (ticket.seq > w.seq && (bound > w.resetAt + slack || remaining > w.remaining))
    ) {
      // A new period. One whose start this limiter saw (after a refill) shows the window's whole length.
      if (w.since > Number.NEGATIVE_INFINITY) w.learned = true;
      Object.assign(w, { remaining, seq: ticket.seq, resetAt: bound, estimated: false });
    } else if (remaining < w.remaining || ticket.seq > w.seq) {
      // Within a period the server's count only grows: the lowest Remaining is the newest.
      Object.assign(w, { remaining: Math.min(w.remaining, remaining), seq: Math.max(w.seq, ticket.seq) });
      w.resetAt = Math.min(w.resetAt, bound);
    }
    w.longestResetMs = Math.max(w.longestResetMs, reset * 1000);
    this.notify();
  }

  /** The request ended (answered, or without a usable report: a network error, a timeout). */
  settle(ticket: Ticket): void {
    const sent = this.sent.find((s) => s.seq === ticket.seq);
    if (sent) sent.done = true;
    this.notify();
  }

  /** Requests let out and not yet settled (answered, failed or refused). */
  inFlight(): number {
    return this.sent.filter((s) => !s.done).length;
  }

  /** A 429: the server did not count the request; nobody sends until Retry-After has passed. */
  refused(ticket: Ticket, retryAfterSeconds: number): void {
    const sent = this.sent.find((s) => s.seq === ticket.seq);
    if (sent) Object.assign(sent, { done: true, refused: true });
    this.pause(retryAfterSeconds);
  }

  /** Nobody sends until `seconds` from now. */
  pause(seconds: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + seconds * 1000);
    this.notify();
  }

  /** The least time `requests` more take under the windows seen so far (ms; undefined: none known). */
  minimumMs(requests: number): number | undefined {
    if (this.windows.size === 0) return undefined;
    const now = this.clock.now();
    let slowest = 0;
    for (const w of this.windows.values()) {
      if (!w.limit) continue;
      const open = w.resetAt !== undefined && now < w.resetAt;
      const room = open ? Math.max(0, w.remaining - this.used(w)) : w.limit;
      if (requests <= room) continue;
      const firstRefill = open ? w.resetAt! - now : 0;
      slowest = Math.max(slowest, firstRefill + (Math.ceil((requests - room) / w.limit) - 1) * periodMs(w));
    }
    return slowest;
  }

  /** Requests per second the windows seen so far allow indefinitely (undefined before any is known). */
  sustainableRate(): number | undefined {
    let rate: number | undefined;
    for (const w of this.windows.values())
      if (w.limit) rate = Math.min(rate ?? Number.POSITIVE_INFINITY, w.limit / (periodMs(w) / 1000));
    return rate;
  }

  /** The time one request takes at the sustainable rate (ms). */
  sustainableMsPerRequest(): number | undefined {
    const rate = this.sustainableRate();
    return rate ? 1000 / rate : undefined;
  }

  private newWindow(key: string, limit: number | undefined): Window {
    const w: Window = {
      limit,
      remaining: 0,
      seq: 0,
      resetAt: undefined,
      estimated: false,
      learned: false,
      since: Number.NEGATIVE_INFINITY,
      startedAt: undefined,
      longestResetMs: 0,
    };
    this.windows.set(key, w);
    return w;
  }

  /** Requests the window's newest report does not count: sent after it, or still in flight. */
  private used(w: Window): number {
    let n = 0;
    for (const s of this.sent) if (!s.refused && (!s.done || s.seq > w.seq)) n++;
    return n;
  }

  /** What keeps the next request back, or undefined when it may go now. */
  private hold(now: number): Hold | undefined {
    if (this.pausedUntil > now) return { ms: this.pausedUntil - now, reason: 'retry-after' };
    const inFlight = this.sent.some((s) => !s.done);
    // Nothing known yet: one request finds out what the windows are before others follow it.
    if (!this.heardBack && inFlight) return { ms: undefined, reason: 'window' };
    let hold: Hold | undefined;
    for (const [key, w] of this.windows) {
      if (w.resetAt !== undefined && now >= w.resetAt + RESET_MARGIN_MS) {
        // Refilled. Without its allowance it cannot be counted: the next report says anew.
        if (w.limit === undefined) this.windows.delete(key);
        else
          Object.assign(w, {
            remaining: w.limit,
            seq: this.seq,
            resetAt: undefined,
            since: now,
            startedAt: undefined,
          });
        continue;
      }
      if (w.remaining - this.used(w) > 0) continue;
      // Full with no end known: its reports are still to come, or it is guessed from its period.
      if (w.resetAt === undefined && !inFlight)
        Object.assign(w, { resetAt: (w.startedAt ?? now) + periodMs(w), estimated: true });
      const ms = w.resetAt === undefined ? undefined : w.resetAt - now + RESET_MARGIN_MS;
      if (!hold || (hold.ms !== undefined && (ms === undefined || ms > hold.ms)))
        hold = { ms, reason: 'window', limit: w.limit, estimated: w.estimated };
    }
    return hold;
  }

  private send(now: number, order: number): Ticket {
    this.sent = this.sent.filter((s) => !s.done || [...this.windows.values()].some((w) => s.seq > w.seq));
    const ticket: Ticket = { seq: ++this.seq, at: now, order };
    this.sent.push({ seq: ticket.seq, done: false, refused: false });
    for (const w of this.windows.values()) w.startedAt ??= now;
    return ticket;
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
        const now = this.clock.now();
        const hold = this.hold(now);
        if (!hold) {
          const waiter = this.queue.shift()!;
          waiter.resolve(this.send(now, waiter.order));
          continue;
        }
        if (hold.ms !== undefined && this.waitedMs + hold.ms > this.options.maxWaitMs) {
          const waited = `waited ${Math.round(this.waitedMs / 1000)} s in all`;
          const message = `Still rate-limited: ${holdText(hold, hold.ms)}, beyond --max-wait ${Math.round(this.options.maxWaitMs / 1000)} s (${waited})`;
          this.queue.shift()!.reject(new RateLimitExhaustedError(message));
          continue;
        }
        const changed = this.changed.signal;
        if (hold.ms === undefined) {
          await new Promise((resolve) => changed.addEventListener('abort', resolve, { once: true }));
          continue;
        }
        // Once per wait, not again each time a report wakes the queue to look at it anew.
        if (Math.abs(now + hold.ms - this.announcedUntil) > 100) {
          this.announcedUntil = now + hold.ms;
          this.options.onWait?.({ ms: hold.ms, reason: hold.reason, limit: hold.limit });
        }
        try {
          await (this.options.sleep ?? ((ms, cancel) => this.clock.sleep(ms, cancel)))(hold.ms, changed);
        } catch (err) {
          // Interrupted (Ctrl-C): every queued caller stops.
          for (const waiter of this.queue.splice(0)) waiter.reject(err);
          return;
        }
        this.waitedMs += Math.min(hold.ms, Math.max(0, this.clock.now() - now));
      }
    } finally {
      this.pumping = false;
    }
  }
}

/**
 * A window's period. The server says only how long is left, so a window first seen mid-period shows
 * less than its length: until a refill is seen, it is taken as the next of the spec's per-second and
 * per-minute periods at or above the longest Reset seen (a 20-a-minute window first seen with 20 s
 * left is a minute long, not 20 s); after a refill, its reports of a whole period tell.
 */
function periodMs(w: Window): number {
  const seen = Math.max(w.longestResetMs, 1000);
  if (w.learned) return seen;
  return seen <= 1000 ? 1000 : Math.max(seen, 60_000);
}

/** Who says how long the wait is: the server (Retry-After, a window's Reset) or the limiter's estimate. */
function holdText(hold: Hold, ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (hold.reason === 'retry-after') return `the server asks to wait ${seconds} s more`;
  if (hold.estimated) return `the rate-limit window should refill in about ${seconds} s (an estimate)`;
  return `the server's rate-limit window refills in ${seconds} s`;
}
