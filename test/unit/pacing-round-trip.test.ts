// The limiter's window end when the first answer is slow for a reason of its own (a new
// connection's handshake, a cold server deciding late in it): the sandbox's own windows decide.
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/api/ratelimit.js';
import { RateLimiter as ServerWindows } from '../../src/sandbox/ratelimit.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

describe('RateLimiter after a slow first answer', () => {
  it("sends nothing into the server's first second before it ends: the first answer's 218 ms were the server's start, not the way", async () => {
    const clock = new VirtualClock(1_000_000);
    const server = new ServerWindows([{ limit: 3, windowMs: 1_000 }], clock);
    const limiter = new RateLimiter({ maxWaitMs: 60_000, clock });
    const refused: number[] = [];
    // Each request: the way out (the first one's 214 ms: the server's cold start before it decides), the
    // decision, 4 ms back.
    for (let i = 0; i < 6; i++) {
      const ticket = await clock.settle(limiter.acquire());
      await clock.advance(i === 0 ? 214 : 5);
      const decision = server.take(clock.now())!;
      await clock.advance(4);
      const { limit, remaining, resetSeconds } = decision.state;
      if (decision.allowed) limiter.observe(ticket, { limit, remaining, reset: resetSeconds });
      else {
        refused.push(i);
        limiter.observe(ticket, { limit, remaining, reset: resetSeconds }, decision.retryAfterSeconds);
      }
    }
    expect(refused).toEqual([]);
  });
});
