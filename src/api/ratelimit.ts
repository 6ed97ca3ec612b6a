// Client-side pacing from RateLimit-Limit/Remaining/Reset and Retry-After (the model is explained in
// docs/rate-limits.md). One limiter is shared by every request of a command; callers take turns
// through acquire().

import { type Clock, realClock } from '../shared/clock.js';
import type { RateLimitHeaders } from './ratelimit-headers.js';
import { type Hold, Turns, type WaitInfo } from './ratelimit-turns.js';
import { periodMs, type Window } from './ratelimit-window.js';

export { parseRateLimitHeaders, parseRetryAfter, type RateLimitHeaders } from './ratelimit-headers.js';
export type { WaitInfo } from './ratelimit-turns.js';

/** Past a window's reported end before it counts as refilled: Reset is whole seconds, clocks differ. */
export const RESET_MARGIN_MS = 50;

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
  private pausedUntil = 0;
  private heardBack = false;
  /** Another client spends the same windows (a report counted more than this limiter sent, or a 429). */
  private shared = false;
  /** Surely shared: a report counted more than this limiter can have sent since the one before. */
  private crowded = false;
  private readonly turns: Turns<Ticket>;

  constructor(options: RateLimiterOptions) {
    this.clock = options.clock ?? realClock;
    const { maxWaitMs, onWait, sleep } = options;
    const hold = (now: number) => this.hold(now);
    this.turns = new Turns(this.clock, maxWaitMs, hold, (now, order) => this.send(now, order), onWait, sleep);
  }

  /** A new --max-wait allowance: a long-running command (mtg watch) grants one per unit of work. */
  resetWaited(): void {
    this.turns.resetWaited();
  }

  /** Wait for our turn and for room in every window; `order` (from an earlier ticket) keeps a retry's place. */
  acquire(order?: number): Promise<Ticket> {
    return this.turns.take(order);
  }

  /**
   * An answer, in one call: its report, of the window closest to exhaustion, and for a 429 its wait
   * (`refusedForSeconds`: the server did not count it; nobody sends until then). The report bounds
   * that window's end from above (the server decided at the round trip's midpoint, within the
   * margin); a bound later than the window's by more than Reset's rounding is of a new period.
   */
  observe(ticket: Ticket, headers: RateLimitHeaders, refusedForSeconds?: number): void {
    this.record(ticket, headers);
    if (refusedForSeconds !== undefined) {
      this.done(ticket, true);
      this.shared = true;
      this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + refusedForSeconds * 1000);
    }
    this.notify();
  }

  private record(ticket: Ticket, headers: RateLimitHeaders, receivedAt = this.clock.now()): void {
    this.done(ticket);
    this.heardBack = true;
    const { limit, remaining, reset } = headers;
    if (remaining === undefined || reset === undefined) return;
    const sentAt = ticket.at ?? receivedAt;
    const bound = (sentAt + receivedAt) / 2 + reset * 1000;
    // Two windows of one allowance are told apart by their scale: per second, or longer (spec section 8).
    const key = `${limit ?? '?'}/${reset <= 1 ? 's' : 'long'}`;
    const w = this.windows.get(key) ?? { limit, remaining: 0, seq: 0, since: Number.NEGATIVE_INFINITY };
    this.windows.set(key, w);
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
      Object.assign(w, { remaining, seq: ticket.seq, resetAt: bound, estimated: false }, this.mark());
    } else if (remaining < w.remaining || ticket.seq > w.seq) {
      // Counted more than this limiter sent: another client may use the key (a first sign: reports
      // of reordered answers can show it too), and then surely (more than it can have sent).
      if (ticket.seq > w.seq && remaining < w.remaining - this.sentBetween(w.seq, ticket.seq))
        this.shared = true;
      if (remaining < w.remaining - (w.inFlightThen ?? 0) - this.sentAfter(w.afterSeq ?? 0))
        this.crowded = true;
      // Within a period the server's count only grows: the lowest Remaining is the newest.
      if (remaining < w.remaining) Object.assign(w, { remaining }, this.mark());
      w.seq = Math.max(w.seq, ticket.seq);
      w.resetAt = Math.min(w.resetAt, bound);
    }
    w.longestResetMs = Math.max(w.longestResetMs ?? 0, reset * 1000);
  }

  /** The request ended (answered, or without a usable report: a network error, a timeout). */
  settle(ticket: Ticket): void {
    this.done(ticket);
    this.notify();
  }

  private done(ticket: Ticket, refused = false): void {
    const sent = this.sent.find((s) => s.seq === ticket.seq);
    if (sent) Object.assign(sent, { done: true, refused });
  }

  /** Requests let out and not yet settled (answered, failed or refused). */
  inFlight(): number {
    return this.sent.filter((s) => !s.done).length;
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

  private sentBetween(after: number, upTo: number): number {
    return this.sent.filter((s) => !s.refused && s.seq > after && s.seq <= upTo).length;
  }
  /** Ours sent after `seq` and not refused. */
  private sentAfter(seq: number): number {
    return this.sent.filter((s) => !s.refused && s.seq > seq).length;
  }

  /** Where a window's count stands against ours now (see Window.inFlightThen). */
  private mark(): { inFlightThen: number; afterSeq: number } {
    return { inFlightThen: this.inFlight(), afterSeq: this.seq };
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
        else Object.assign(w, { remaining: w.limit, seq: this.seq, since: now }, this.mark());
        w.resetAt = w.startedAt = undefined;
        continue;
      }
      // Shared with another client, a refilled window's first request goes alone: its report says
      // what the others left.
      if (this.shared && w.resetAt === undefined && inFlight) return { ms: undefined, reason: 'window' };
      // Crowded: a window's last slot is left to the other client, whose requests since the report
      // are unseen (both taking it is a 429).
      if (w.remaining - this.used(w) > (this.crowded ? 1 : 0)) continue;
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
    this.turns.notify();
  }
}
