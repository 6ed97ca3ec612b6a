import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateLimitExhaustedError } from '../../src/api/errors.js';
import {
  type PacingState,
  pacingDelay,
  parseRateLimitHeaders,
  parseRetryAfter,
  RateLimiter,
  RESET_MARGIN_MS,
} from '../../src/api/ratelimit.js';

const fresh = (over: Partial<PacingState> = {}): PacingState => ({
  inFlightSince: 0,
  pausedUntil: 0,
  ...over,
});

describe('pacingDelay', () => {
  it('sends at once while budget remains or nothing is known', () => {
    expect(pacingDelay(fresh(), 1000)).toBeUndefined();
    expect(pacingDelay(fresh({ limit: 20, remaining: 3, resetAt: 2000 }), 1000)).toBeUndefined();
  });

  it('waits for the reset when Remaining is 0', () => {
    const wait = pacingDelay(fresh({ limit: 20, remaining: 0, resetAt: 13_000 }), 1000);
    expect(wait).toEqual({ ms: 12_000 + RESET_MARGIN_MS, reason: 'window', limit: 20 });
  });

  it('counts requests still in flight against the remaining budget', () => {
    expect(
      pacingDelay(fresh({ limit: 5, remaining: 2, resetAt: 2000, inFlightSince: 2 }), 1000)?.reason,
    ).toBe('window');
    expect(
      pacingDelay(fresh({ limit: 5, remaining: 2, resetAt: 2000, inFlightSince: 1 }), 1000),
    ).toBeUndefined();
  });

  it('sends once the reported window has refilled', () => {
    expect(pacingDelay(fresh({ limit: 5, remaining: 0, resetAt: 1000 }), 1000)).toBeUndefined();
  });

  it('honors a 429 pause before anything else', () => {
    expect(pacingDelay(fresh({ remaining: 10, resetAt: 5000, pausedUntil: 4000 }), 1000)).toMatchObject({
      ms: 3000,
      reason: 'retry-after',
    });
  });

  it('never waits longer than the reset or pause it was told (property)', () => {
    fc.assert(
      fc.property(
        fc.nat(100),
        fc.nat(100),
        fc.nat(120_000),
        fc.nat(120_000),
        fc.nat(20),
        (limit, remaining, resetIn, pauseIn, inFlight) => {
          const now = 1_000_000;
          const state = fresh({
            limit,
            remaining,
            resetAt: now + resetIn,
            pausedUntil: now + pauseIn,
            inFlightSince: inFlight,
          });
          const wait = pacingDelay(state, now);
          if (wait) {
            expect(wait.ms).toBeGreaterThan(0);
            expect(wait.ms).toBeLessThanOrEqual(Math.max(resetIn + RESET_MARGIN_MS, pauseIn));
          }
          // With budget left and no pause there is no wait.
          if (pauseIn === 0 && remaining - inFlight > 0) expect(wait).toBeUndefined();
        },
      ),
    );
  });
});

describe('rate-limit headers', () => {
  it('parses RateLimit-* and tolerates junk', () => {
    const headers: Record<string, string> = {
      'ratelimit-limit': '300',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '12',
    };
    expect(parseRateLimitHeaders((n) => headers[n])).toEqual({ limit: 300, remaining: 0, reset: 12 });
    expect(parseRateLimitHeaders(() => 'abc')).toEqual({
      limit: undefined,
      remaining: undefined,
      reset: undefined,
    });
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

/** A fake clock: sleeping advances time instantly, so the tests measure decisions, not seconds. */
function fakeClock() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    advance: (ms: number) => {
      now += ms;
    },
    sleeps,
  };
}

describe('RateLimiter', () => {
  it('paces a sequential export: no wait until Remaining hits 0, then one wait for the reset', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ maxWaitMs: 60_000, now: clock.now, sleep: clock.sleep });
    for (let remaining = 4; remaining >= 0; remaining--) {
      const ticket = await limiter.acquire();
      limiter.observe(ticket, { limit: 5, remaining, reset: 1 });
    }
    expect(clock.sleeps).toEqual([]);
    await limiter.acquire();
    expect(clock.sleeps).toEqual([1000 + RESET_MARGIN_MS]);
  });

  it('lets concurrent callers use the budget but not exceed it', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ maxWaitMs: 60_000, now: clock.now, sleep: clock.sleep });
    const first = await limiter.acquire();
    limiter.observe(first, { limit: 3, remaining: 2, reset: 1 });
    // Two more fit in the window without waiting; the third must wait for the reset.
    await limiter.acquire();
    await limiter.acquire();
    expect(clock.sleeps).toEqual([]);
    await limiter.acquire();
    expect(clock.sleeps.length).toBe(1);
  });

  it("waits for the window's earliest bound, not the bound of its last request", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ maxWaitMs: 60_000, now: clock.now, sleep: clock.sleep });
    // The window's first request comes back at t=100: it refills by t=1100 at the latest.
    const first = await limiter.acquire();
    clock.advance(100);
    limiter.observe(first, { limit: 3, remaining: 2, reset: 1 });
    // The rest of the window, answered later: each still says "1 s", a later (looser) bound.
    for (const remaining of [1, 0]) {
      const t = await limiter.acquire();
      clock.advance(200);
      limiter.observe(t, { limit: 3, remaining, reset: 1 });
    }
    expect(clock.now()).toBe(500);
    await limiter.acquire();
    expect(clock.sleeps).toEqual([1100 - 500 + RESET_MARGIN_MS]);
  });

  it('takes the bound of a refilled window from its own reports', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ maxWaitMs: 60_000, now: clock.now, sleep: clock.sleep });
    const a = await limiter.acquire();
    limiter.observe(a, { limit: 3, remaining: 1, reset: 1 });
    clock.advance(1500); // that window is over; the next request opens a new one
    const b = await limiter.acquire();
    clock.advance(100);
    limiter.observe(b, { limit: 3, remaining: 0, reset: 1 });
    await limiter.acquire();
    expect(clock.sleeps).toEqual([1000 + RESET_MARGIN_MS]);
  });

  it('ignores a stale report that arrives after a newer one', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ maxWaitMs: 60_000, now: clock.now, sleep: clock.sleep });
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    limiter.observe(b, { limit: 10, remaining: 8, reset: 1 });
    limiter.observe(a, { limit: 10, remaining: 0, reset: 1 });
    await limiter.acquire();
    expect(clock.sleeps).toEqual([]);
  });

  it('gives up with exit 5 when the next wait would pass --max-wait', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ maxWaitMs: 5_000, now: clock.now, sleep: clock.sleep });
    const t = await limiter.acquire();
    limiter.observe(t, { limit: 300, remaining: 0, reset: 60 });
    const err = await limiter.acquire().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitExhaustedError);
    expect((err as RateLimitExhaustedError).exitCode).toBe(5);
    // A failed wait does not wedge later callers.
    clock.advance(61_000);
    await expect(limiter.acquire()).resolves.toBeDefined();
  });

  it('reports each wait so the CLI can say how long and why', async () => {
    const clock = fakeClock();
    const waits: unknown[] = [];
    const limiter = new RateLimiter({
      maxWaitMs: 60_000,
      now: clock.now,
      sleep: clock.sleep,
      onWait: (w) => waits.push(w),
    });
    limiter.pause(3);
    await limiter.acquire();
    expect(waits).toEqual([{ ms: 3000, reason: 'retry-after', limit: undefined }]);
  });
});
