// Two mtg processes on one machine and key share their requests and answers (src/api/ratelimit-shared.ts):
// each limiter reads the other's as its own. Here two limiters share a store in memory, on a virtual
// clock: what a user would see is a second command that waits where it would have met a 429.
import { describe, expect, it } from 'vitest';
import { RateLimiter, type RateLimitHeaders, RESET_MARGIN_MS } from '../../src/api/ratelimit.js';
import { MemoryReports, type SharedReports } from '../../src/api/ratelimit-shared.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

function twoProcesses(share = true) {
  const clock = new VirtualClock(1_000_000);
  const store = new MemoryReports();
  const limiter = (shared?: SharedReports) => new RateLimiter({ maxWaitMs: 600_000, clock, shared });
  const first = limiter(store.handle());
  // The second process starts later: its limiter is new, and knows only what the store says.
  const second = () => limiter(share ? store.handle() : undefined);
  /** The first process's request, answered 20 ms later with `headers` (`refusedFor`: a 429's pause, s). */
  const answer = async (headers: RateLimitHeaders, refusedFor?: number) => {
    const t = await first.acquire();
    await clock.advance(20);
    first.observe(t, headers, refusedFor);
  };
  return { clock, first, second, answer };
}

describe('limiters sharing the newest reports', () => {
  it("a new process's first request waits for the window another process emptied, instead of a 429", async () => {
    const { clock, second, answer } = twoProcesses();
    await answer({ limit: 20, remaining: 0, reset: 30 });
    const fresh = second();
    const asked = clock.now();
    await clock.settle(fresh.acquire());
    expect(clock.now() - asked).toBeGreaterThanOrEqual(30_000 - 20);
  });

  it.each([2_000, 5_000, 20_000])(
    "a process started %i ms after another's answer emptied the window still waits for its refill",
    async (gap) => {
      // The newcomer knows no window yet: the other's report must reach it while its window is empty.
      const { clock, second, answer } = twoProcesses();
      await answer({ limit: 20, remaining: 0, reset: 30 });
      await clock.advance(gap);
      const fresh = second();
      const asked = clock.now();
      await clock.settle(fresh.acquire());
      expect(clock.now() - asked).toBeGreaterThanOrEqual(30_000 - 20 - gap);
    },
  );

  it('--max-wait 0 beside another process: its turns to decide are no rate-limit wait', async () => {
    const clock = new VirtualClock(1_000_000);
    const store = new MemoryReports();
    const handle = store.handle();
    let busy = 3; // the other holds the right to decide at the first three looks
    const shared: SharedReports = { ...handle, claim: () => busy-- <= 0, release: () => undefined };
    const waits: unknown[] = [];
    const limiter = new RateLimiter({ maxWaitMs: 0, clock, shared, onWait: (w) => waits.push(w) });
    await clock.settle(limiter.acquire());
    expect(busy).toBeLessThan(0);
    expect(waits).toEqual([]); // nothing said of a rate limit
  });

  it("two processes do not both spend the last slots: the other's request in flight counts", async () => {
    const { clock, first, second, answer } = twoProcesses();
    await answer({ limit: 3, remaining: 2, reset: 30 });
    const other = second();
    await first.acquire(); // in flight: 1 left
    const asked = clock.now();
    await clock.settle(other.acquire()); // takes it
    expect(clock.now()).toBe(asked);
    await clock.settle(first.acquire()); // none left: waits for the refill
    expect(clock.now() - asked).toBeGreaterThanOrEqual(30_000 - 20);
  });

  it("another process's 429 holds this one for its Retry-After", async () => {
    const { clock, second, answer } = twoProcesses();
    const other = second();
    await answer({ limit: 3, remaining: 0, reset: 1 }, 5);
    const asked = clock.now();
    await clock.settle(other.acquire());
    expect(clock.now() - asked).toBeGreaterThanOrEqual(5_000);
  });

  it('a request the other process never saw answered (it ended) holds nobody once it is gone from its log', async () => {
    const clock = new VirtualClock(1_000_000);
    const store = new MemoryReports();
    const gone = store.handle();
    const first = new RateLimiter({ maxWaitMs: 600_000, clock, shared: gone });
    await first.acquire(); // never answered: the process was killed
    const other = new RateLimiter({ maxWaitMs: 600_000, clock, shared: store.handle() });
    const waiting = other.acquire();
    await clock.advance(200); // nothing known yet and one request out: it waits for its answer
    gone.write([]); // its writer ended (the file store drops a log whose process is gone)
    await clock.settle(waiting);
    expect(clock.now() - 1_000_000).toBeLessThanOrEqual(200 + RESET_MARGIN_MS);
  });

  it('without sharing, the same second process is sent at once (the 429 the first test avoids)', async () => {
    const { clock, second, answer } = twoProcesses(false);
    await answer({ limit: 20, remaining: 0, reset: 30 });
    const asked = clock.now();
    await clock.settle(second().acquire());
    expect(clock.now()).toBe(asked);
  });
});
