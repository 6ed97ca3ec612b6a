// The limiter's queue (src/api/ratelimit-turns.ts) given what holds a request back: a hold whose end
// already passed (the model's estimate from a window's stale start, found in review) is no wait.
import { describe, expect, it } from 'vitest';
import { RateLimitExhaustedError } from '../../src/api/errors.js';
import { type Hold, Turns, type WaitInfo } from '../../src/api/ratelimit-turns.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

describe('Turns', () => {
  it('takes a hold whose end already passed as no wait: nothing announced, --max-wait not given back', async () => {
    const clock = new VirtualClock();
    // The model's holds, in turn: an end 58 s past, then two waits of 6 s; --max-wait is 10 s.
    const holds: Hold[] = [
      { ms: -58_000, reason: 'window', limit: 20 },
      { ms: 6_000, reason: 'window', limit: 20 },
      { ms: 6_000, reason: 'window', limit: 20 },
    ];
    const announced: WaitInfo[] = [];
    const turns = new Turns<string>(
      clock,
      10_000,
      () => holds.shift(),
      () => 'sent',
      (info) => announced.push(info),
    );
    const err = await clock.settle(turns.take()).catch((e: unknown) => e);
    // 6 s waited, and 6 s more would pass 10 s (before: the 58 s "waited" below zero let both go).
    expect(err).toBeInstanceOf(RateLimitExhaustedError);
    expect((err as Error).message).toMatch(/beyond --max-wait 10 s \(waited 6 s in all\)/);
    expect(announced.map((a) => a.ms)).toEqual([6_000]);
  });
});
