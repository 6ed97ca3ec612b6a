// Fixed-window rate limiting per account (spec section 8). A window starts at the first request after
// the previous one ended. A 429 consumes no budget. Time is the sandbox's clock (a virtual one in tests).

import { type Clock, realClock } from '../shared/clock.js';
import { parseDurationMs } from '../shared/durations.js';

export interface LimitWindow {
  limit: number;
  windowMs: number;
}

/**
 * "5/1s", "40 / 10 s", "3/0.5s" (COUNT/DURATION, as --limits and --churn take them): the count and
 * the duration in ms (units ms, s, m, h; decimals rounded to the ms), through mtg's one duration
 * parser; undefined when `text` is not of that shape (the caller checks the ranges and says why).
 */
export function parseCountPerDuration(text: string): { count: number; ms: number } | undefined {
  const m = /^(\d+)\s*\/\s*(.*)$/s.exec(text);
  if (!m) return undefined;
  const ms = parseDurationMs(m[2]!, ['ms', 's', 'm', 'h'], { decimals: true, spaced: true });
  return ms === undefined ? undefined : { count: Number(m[1]), ms };
}

/** "5/1s,40/10s" -> windows; "none" -> no limiting. Throws a one-line Error on bad input. */
export function parseLimits(spec: string): LimitWindow[] {
  const trimmed = spec.trim();
  if (trimmed.toLowerCase() === 'none') return [];
  if (trimmed === '') throw new Error('invalid limits "": expected e.g. "5/1s,40/10s" or "none"');
  return trimmed.split(',').map((part) => {
    const m = parseCountPerDuration(part.trim());
    const limit = m ? m.count : Number.NaN;
    const windowMs = m ? m.ms : Number.NaN;
    if (!m || !Number.isSafeInteger(limit) || limit < 1 || !(windowMs >= 1) || windowMs > 86_400_000) {
      throw new Error(
        `invalid limits window "${part.trim()}": expected COUNT/DURATION such as 5/1s (units ms, s, m, h; count >= 1, at most 24h)`,
      );
    }
    return { limit, windowMs };
  });
}

/** "20 per second", "40 per 10 seconds", "300 per minute". */
export function describeWindow(w: LimitWindow): string {
  const units: [number, string][] = [
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
    [1, 'millisecond'],
  ];
  for (const [ms, name] of units) {
    if (w.windowMs % ms === 0) {
      const n = w.windowMs / ms;
      return n === 1 ? `${w.limit} per ${name}` : `${w.limit} per ${n} ${name}s`;
    }
  }
  return `${w.limit} per ${w.windowMs} ms`;
}

export interface RateState {
  limit: number;
  remaining: number;
  /** Integer seconds until the reported window refills (ceil, at least 1 while it is open). */
  resetSeconds: number;
}

export type RateDecision =
  | { allowed: true; state: RateState }
  | { allowed: false; state: RateState; retryAfterSeconds: number; window: LimitWindow };

// Less a nanosecond: times in ms with fractions (a virtual clock) make `start + windowMs - now` a hair
// over the window for a request that opened it, which would say 2 s for a per-second window.
const ceilSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000 - 1e-9));

export class RateLimiter {
  private readonly starts: number[];
  private readonly counts: number[];

  constructor(
    readonly windows: readonly LimitWindow[],
    private readonly clock: Clock = realClock,
  ) {
    this.starts = windows.map(() => Number.NEGATIVE_INFINITY);
    this.counts = windows.map(() => 0);
  }

  /** Checks and, when allowed, consumes one request in every window. */
  take(now: number = this.clock.now()): RateDecision | undefined {
    if (this.windows.length === 0) return undefined;
    let blocked = -1;
    let retryMs = 0;
    this.windows.forEach((w, i) => {
      if (now >= this.starts[i]! + w.windowMs) {
        this.starts[i] = now;
        this.counts[i] = 0;
      }
      if (this.counts[i]! >= w.limit) {
        const wait = this.starts[i]! + w.windowMs - now;
        // Retry-After must outlast every exhausted window, not just the first one found.
        if (wait > retryMs) {
          retryMs = wait;
          blocked = i;
        }
      }
    });
    if (blocked >= 0) {
      return {
        allowed: false,
        state: this.stateOf(blocked, now),
        retryAfterSeconds: ceilSeconds(retryMs),
        window: this.windows[blocked]!,
      };
    }
    for (let i = 0; i < this.counts.length; i++) this.counts[i]!++;
    return { allowed: true, state: this.closestToExhaustion(now) };
  }

  private stateOf(i: number, now: number): RateState {
    const w = this.windows[i]!;
    return {
      limit: w.limit,
      remaining: Math.max(0, w.limit - this.counts[i]!),
      resetSeconds: ceilSeconds(this.starts[i]! + w.windowMs - now),
    };
  }

  /** The window with the lowest remaining/limit ratio; on a tie, the one that refills later. */
  private closestToExhaustion(now: number): RateState {
    let best = this.stateOf(0, now);
    for (let i = 1; i < this.windows.length; i++) {
      const s = this.stateOf(i, now);
      const a = s.remaining / s.limit;
      const b = best.remaining / best.limit;
      if (a < b || (a === b && s.resetSeconds > best.resetSeconds)) best = s;
    }
    return best;
  }
}
