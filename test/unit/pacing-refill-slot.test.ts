// A client refused while ours are alone is unseen (a 429 counts in no window) and comes back at the
// refill its Retry-After names, within a second: the slot ours keep for it there (slotsKept in
// src/api/ratelimit-window.ts). The sandbox's own windows decide, on a virtual clock.
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/api/ratelimit.js';
import { RateLimiter as ServerWindows } from '../../src/sandbox/ratelimit.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

const FREE = [
  { limit: 3, windowMs: 1_000 },
  { limit: 20, windowMs: 60_000 },
];

/**
 * Ours, `count` requests one at a time (5 ms each way), and another client's one request `delayMs`
 * after ours' `afterIndex`-th was decided: when ours were decided, ours' 429s, and whether the
 * other's request was admitted.
 */
async function run(count: number, other: { afterIndex: number; delayMs: number }) {
  const clock = new VirtualClock(1_000_000);
  const server = new ServerWindows(FREE, clock);
  const limiter = new RateLimiter({ maxWaitMs: 600_000, clock });
  const decidedAt: number[] = [];
  let refused = 0;
  let theirs: boolean | undefined;
  while (decidedAt.length < count) {
    const ticket = await clock.settle(limiter.acquire());
    await clock.advance(5);
    const decision = server.take(clock.now())!;
    if (decision.allowed) decidedAt.push(clock.now());
    if (decision.allowed && decidedAt.length === other.afterIndex + 1)
      clock.timeout(() => {
        theirs = server.take(clock.now())!.allowed;
      }, other.delayMs);
    await clock.advance(5);
    const { limit, remaining, resetSeconds } = decision.state;
    if (decision.allowed) limiter.observe(ticket, { limit, remaining, reset: resetSeconds });
    else {
      refused++;
      limiter.observe(ticket, { limit, remaining, reset: resetSeconds }, decision.retryAfterSeconds);
    }
  }
  return { decidedAt, refused, theirs };
}

describe('RateLimiter alone at the refill of a minute it filled', () => {
  it("keeps one of the first second's slots, once the minute's period is known: a client refused meanwhile finds it", async () => {
    // The third minute's first request (the first two show the minute's period); the other client,
    // refused while the minute was full, comes back 400 ms after it.
    const { decidedAt, refused, theirs } = await run(60, { afterIndex: 40, delayMs: 400 });
    expect(theirs).toBe(true);
    const start = decidedAt[40]!;
    expect(decidedAt.filter((t) => t >= start && t < start + 1_000)).toHaveLength(2);
    // Its request counted, the minute's reports show it: ours, sure of it now, leave the minute's last
    // slot to it too (18 of ours), and none of ours is refused.
    expect(decidedAt.filter((t) => t >= start && t < start + 60_000)).toHaveLength(18);
    expect(refused).toBe(0);
  });

  it('takes the whole first second of the minute that shows its period (the second)', async () => {
    const { decidedAt } = await run(40, { afterIndex: 20, delayMs: 400 });
    const start = decidedAt[20]!;
    expect(decidedAt.filter((t) => t >= start && t < start + 1_000)).toHaveLength(3);
  });
});
