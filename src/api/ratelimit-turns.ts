// The rate limiter's queue (ratelimit.ts): callers in their order, each let out when the model says
// nothing holds it, or failed when the wait would pass --max-wait. The model says what holds a
// request back; this says how long everyone waits, and tells people once per wait.

import type { Clock } from '../shared/clock.js';
import { RateLimitExhaustedError } from './errors.js';

export interface WaitInfo {
  ms: number;
  reason: 'window' | 'retry-after';
  /** The window's allowance, to name it for people ("the window of 300 requests"). */
  limit?: number;
}

/** A request the limiter let out (RateLimiter.acquire()). */
export interface Ticket {
  seq: number;
  /** When the request was let out (the limiter's clock). */
  at?: number;
  /** The caller's place in the queue: a retry passes it back to acquire() to keep its turn. */
  order?: number;
}

/**
 * How long the next request must wait (ms), or until the limiter hears back (`ms` undefined). A
 * `shared` hold is a look again beside another mtg process (its turn to decide, its request out:
 * ratelimit-shared.ts), bounded there: no rate limit, so neither announced nor counted against
 * --max-wait (`--max-wait 0` beside a running mtg exited 5 at once).
 */
export type Hold = {
  ms: number | undefined;
  reason: WaitInfo['reason'] | 'shared';
  limit?: number;
  estimated?: boolean;
};

/** The longer of two holds (ms undefined: until an answer comes, the longest). */
export const longer = (a: Hold | undefined, b: Hold | undefined): Hold | undefined =>
  !a || (b && a.ms !== undefined && (b.ms === undefined || b.ms > a.ms)) ? b : a;

interface Waiter<T> {
  order: number;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

export class Turns<T> {
  private queue: Waiter<T>[] = [];
  private orders = 0;
  private pumping = false;
  private changed = new AbortController();
  private announcedUntil = Number.NEGATIVE_INFINITY;
  private waitedMs = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxWaitMs: number,
    /** What keeps the head of the queue back now, or undefined: it goes, and `send` lets it out. */
    private readonly hold: (now: number) => Hold | undefined,
    private readonly send: (now: number, order: number) => T,
    private readonly onWait?: (info: WaitInfo) => void,
    /** Sleeps, ending early when `cancel` aborts; may throw to stop every waiter (Ctrl-C). */
    private readonly sleep: (ms: number, cancel?: AbortSignal) => Promise<void> = (ms, cancel) =>
      clock.sleep(ms, cancel),
  ) {}

  /** Queue a caller; `order` (from an earlier turn) puts a retry back in its place. */
  take(order?: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = { order: order ?? ++this.orders, resolve, reject };
      let at = this.queue.length;
      while (at > 0 && this.queue[at - 1]!.order > waiter.order) at--;
      this.queue.splice(at, 0, waiter);
      void this.pump();
    });
  }

  /** Something the hold depends on changed: look again now. */
  notify(): void {
    this.changed.abort();
    this.changed = new AbortController();
  }

  /** A new --max-wait allowance. */
  resetWaited(): void {
    this.waitedMs = 0;
  }

  /** Lets queued callers out in order. Bounded: each pass lets one out, fails one or waits. */
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
        // An end already past (an estimate from a window's stale start) is no wait: never a negative
        // one, which would be announced and would give back --max-wait's allowance.
        if (hold.ms !== undefined && hold.ms < 0) hold.ms = 0;
        // A rate limit's wait (not a look beside another mtg): counted, announced.
        const waitReason = hold.reason === 'shared' ? undefined : hold.reason;
        if (waitReason && hold.ms !== undefined && this.waitedMs + hold.ms > this.maxWaitMs) {
          const waited = `waited ${Math.round(this.waitedMs / 1000)} s in all`;
          const beyond = `beyond --max-wait ${Math.round(this.maxWaitMs / 1000)} s`;
          const message = `Still rate-limited: ${holdText(hold, hold.ms)}, ${beyond} (${waited})`;
          this.queue.shift()!.reject(new RateLimitExhaustedError(message));
          continue;
        }
        const changed = this.changed.signal;
        if (hold.ms === undefined) {
          await new Promise((resolve) => changed.addEventListener('abort', resolve, { once: true }));
          continue;
        }
        // Once per wait, not again each time a report wakes the queue to look at it anew.
        if (waitReason && hold.ms > 0 && Math.abs(now + hold.ms - this.announcedUntil) > 100) {
          this.announcedUntil = now + hold.ms;
          this.onWait?.({ ms: hold.ms, reason: waitReason, limit: hold.limit });
        }
        try {
          await this.sleep(hold.ms, changed);
        } catch (err) {
          // Interrupted (Ctrl-C): every queued caller stops.
          for (const waiter of this.queue.splice(0)) waiter.reject(err);
          return;
        }
        if (waitReason) this.waitedMs += Math.min(hold.ms, Math.max(0, this.clock.now() - now));
      }
    } finally {
      this.pumping = false;
    }
  }
}

/** Who says how long the wait is: the server (Retry-After, a window's Reset) or the limiter's estimate. */
function holdText(hold: Hold, ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (hold.reason === 'retry-after') return `the server asks to wait ${seconds} s more`;
  if (hold.estimated) return `the rate-limit window should refill in about ${seconds} s (an estimate)`;
  return `the server's rate-limit window refills in ${seconds} s`;
}
