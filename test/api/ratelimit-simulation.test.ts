// Pacing judged by simulation (bench/ratelimit-sim.ts): clients with mtg's rate limiter against the
// sandbox's own windows, on a virtual clock. Targets per shape (issue #31): at least 95% of the rate
// the windows allow at best, and at most 5 refusals (429) per 1,000 requests; a shape the model
// does not meet yet is held to what it does today (`holds`, said in the closing note).
import { describe, expect, it } from 'vitest';
import { SHAPES, simulate } from '../../bench/ratelimit-sim.js';

describe('the rate limiter against the sandbox windows (simulated on a virtual clock)', () => {
  for (const shape of SHAPES) {
    it(shape.name, async () => {
      const outcome = await simulate(shape);
      expect(outcome.throughput).toBeGreaterThanOrEqual(shape.holds?.throughput ?? 0.95);
      expect(outcome.per1000).toBeLessThanOrEqual(shape.holds?.per1000 ?? 5);
    });
  }

  // Seed 6 draws a first round trip long enough that the bound on a window's end comes early: after
  // a 429, a refill's first report counted our own requests of the server's period before, and was
  // once read as another client's, for good (the last slot of every window left): 61.5% of the rate.
  it('reordered answers, seed 6: counts of the period before are not taken for another client', async () => {
    const shape = SHAPES.find((s) => s.name.startsWith('3/1s+20/10s, reordered'))!;
    const outcome = await simulate(shape, 6);
    expect(outcome.throughput).toBeGreaterThanOrEqual(0.94);
    expect(outcome.per1000).toBeLessThanOrEqual(5);
  });

  // Seed 5: one client's 429 left before its report of the window's last slot came back, so that
  // newest report explained the refusal; only the one heard before it left shows the other client.
  // Unseen, it went on as if alone: 70 429s per 1,000.
  it('two clients on one key, seed 5: a 429 is weighed against every report heard before it left', async () => {
    const shape = SHAPES.find((s) => s.name.includes('two clients'))!;
    const outcome = await simulate(shape, 5);
    expect(outcome.throughput).toBeGreaterThanOrEqual(0.95);
    expect(outcome.per1000).toBeLessThanOrEqual(5);
  });

  // Seed 8: the other client, refused while our minute window is full, came back at its refill as we
  // did; each time one of our three met a 429 (maybe), the next clean second settled it (none), and
  // it never showed for sure: 144 429s of 3,000 (48 per 1,000).
  it('a second client trickling 6/min, seed 8: shown by a per-second 429 ours cannot explain, looked for at each refill', async () => {
    const shape = SHAPES.find((s) => s.name.includes('trickling 6/min'))!;
    const outcome = await simulate(shape, 8);
    expect(outcome.throughput).toBeGreaterThanOrEqual(0.95);
    expect(outcome.per1000).toBeLessThanOrEqual(5);
  });

  // Seed 7: ours spread the 10 s window's allowance (2 a second, a slot of each second left to the
  // watch client); each second the watch's request filled, ours waited out its end's bound from that
  // report (a second after our second request, not our first), then caught up with 3 in one second,
  // where the watch's next request met a 429: 22 of them, 7.9 per 1,000 of both.
  it('mtg watch beside on 3/1s+20/10s, seed 7: a second its request filled ends a second after the first of ours it holds', async () => {
    const shape = SHAPES.find((s) => s.name.includes('mtg watch beside'))!;
    const outcome = await simulate(shape, 7);
    expect(outcome.throughput).toBeGreaterThanOrEqual(0.95);
    expect(outcome.per1000).toBeLessThanOrEqual(5);
  });

  // Seed 2: ours, alone (none), sent 3 at each second's start and the 10 s window's 20 within 7 s; the
  // watch client was refused each time it came back, for three minutes, and so showed in no count of
  // ours (99 of its 429s, 32 per 1,000 of both). Alone while answers keep their order, ours
  // now spread the 10 s window's allowance after each period's first 3, which leaves its request room.
  it('mtg watch beside on 3/1s+20/10s, seed 2: ours alone spread the 10 s window, so a client refused each time finds room', async () => {
    const shape = SHAPES.find((s) => s.name.includes('mtg watch beside'))!;
    const outcome = await simulate(shape, 2);
    expect(outcome.throughput).toBeGreaterThanOrEqual(0.95);
    expect(outcome.per1000).toBeLessThanOrEqual(5);
  });

  // Seed 3: ours of the 10 s window's period before, answered after it may have ended (its Reset less a
  // second after their report's request left), were counted in the next at the server but not as ours
  // since its refill: the trickle showed as 2 or 3 of a period, no light client, and ours left each
  // second's last slot (97.60% of the rate). They count as ours now, and ours spread.
  it("a second client trickling 6/min on 3/1s+20/10s, seed 3: ours answered after the period may have ended are not taken for the other's", async () => {
    const shape = SHAPES.find((s) => s.name === '3/1s+20/10s, a second client trickling 6/min')!;
    const outcome = await simulate(shape, 3);
    expect(outcome.throughput).toBeGreaterThanOrEqual(0.985);
    expect(outcome.per1000).toBeLessThanOrEqual(5);
  });

  // Answers reordered beside a 6/min trickle, seed 7 (the lowest of seeds 1-8): each second's end found
  // up to 0.8 s late held ours to 1.4 a second of the 1.9 the spread needs, its refilled first request
  // alone waited out its answer, and ours fell behind: 85.9% and 12.3 per 1,000. Held by our own sends
  // alone, 2 a second and 3 only while behind the spread: 92.3% and 4.3. A refilled 10 s window, which
  // reports name only once it is the closer to exhaustion, held ours one at a time until then, though
  // answers since had come back: 93.5% and 4.0. The 10 s window's last second (Reset 1, a per-second
  // key) held ours until its own bound, up to a second past the 10 s window's (the server's end plus
  // ~0.3 s), a period's last request, sent to fit before the end's upper bound, often landed after it
  // (a slot short), and ours in flight were taken to have reached the server by their send plus the
  // way out's spread though answered sooner: that key bounds the 10 s window's end now, the last goes
  // by the end's lower bound less the spread, and an answer bounds when its request arrived: 95.0%, 4.0.
  it('a 6/min trickle on 3/1s+20/10s with answers reordered, seed 7: the per-second window holds ours by our sends', async () => {
    const shape = SHAPES.find((s) => s.name.includes('trickling 6/min, reordered answers'))!;
    const outcome = await simulate(shape, 7);
    expect(outcome.throughput).toBeGreaterThanOrEqual(0.95);
    expect(outcome.per1000).toBeLessThanOrEqual(5);
  });

  // Alone with answers in order, ours spread the 10 s window at its rate, but a period's first
  // second's allowance goes at once: one at a time from the start, 97.65% (review of the rule).
  it("3/1s+20/10s, 8 at once, alone: the per-second allowance goes at once at a period's start", async () => {
    const shape = SHAPES.find((s) => s.name === '3/1s+20/10s, 8 at once')!;
    const outcome = await simulate(shape);
    expect(outcome.throughput).toBeGreaterThanOrEqual(0.98);
    expect(outcome.per1000).toBeLessThanOrEqual(5);
  });

  // Seed 10: after a 429 at the minute window's refill, the per-second window's report (2 of 3 left,
  // ours alone) settled 'maybe' as none, though the trickle had opened the minute window; ours bounded
  // that period from our first send and met its real end early: a 429 a minute, 23 of 3,000.
  it('pages beside a 1/min trickle, seed 10: a per-second report does not settle the minute window', async () => {
    const shape = SHAPES.find((s) => s.name.includes('(pages), a second client trickling 1/min'))!;
    const outcome = await simulate(shape, 10);
    expect(outcome.throughput).toBeGreaterThanOrEqual(0.95);
    expect(outcome.per1000).toBeLessThanOrEqual(5);
  });

  // Seed 2: each new cron process's first request is sent blind, right after the run before took its
  // last request's slot: ours and that run left each second one slot (both sure of the other), which
  // the run took, and the newcomer met a full second about every other time (47 of 109, 20.3 per
  // 1,000). Beside a minute window that needs less than a second's rest, each leaves two.
  it("cron beside on another machine, seed 2: a new process's blind first request finds a second's slot left", async () => {
    const shape = SHAPES.find((s) => s.name.startsWith('Free plan, cron running mtg beside (20'))!;
    const outcome = await simulate(shape, 2);
    expect(outcome.throughput).toBeGreaterThanOrEqual(0.95);
    expect(outcome.per1000).toBeLessThanOrEqual(5);
  });

  // Seed 3: a cron run starts while ours are alone and meets the minute window full; it comes back at
  // the refill its Retry-After names, after ours took the second's 3 slots, and each second's retry
  // comes after ours again, until the minute is full (a 429 counts in no window: ours saw none of it):
  // 83 429s in 12 minutes, 14.7 per 1,000. Ours alone keep a slot of the minute's first second, and
  // the minute's count shows the run that took it.
  it('cron beside on another machine, seed 3: a run refused while ours are alone finds a slot at the refill', async () => {
    for (const name of ['Free plan, cron running mtg beside (20', 'Free plan, cron on another machine']) {
      const outcome = await simulate(SHAPES.find((s) => s.name.startsWith(name))!, 3);
      expect(outcome.throughput).toBeGreaterThanOrEqual(0.95);
      expect(outcome.per1000).toBeLessThanOrEqual(2);
    }
  });

  // Seed 7: a new cron process that knew only the reports sent its first requests at a refill the
  // running one had not reached yet (its bound on the minute window's end was later); the running one
  // counted them in the period before and took its own next request for the new period's first, so
  // that period's start bounded an end a second early: 3 of ours refused every three minutes, 48 per
  // 1,000. Another's request let out where ours would have held it now bounds nothing from its start.
  it('cron beside on the same machine, seed 7: a period another process may have opened is not bounded from ours', async () => {
    const shape = SHAPES.find((s) => s.name === 'Free plan, cron running mtg beside, same machine')!;
    const outcome = await simulate(shape, 7);
    expect(outcome.throughput).toBeGreaterThanOrEqual(0.95);
    expect(outcome.per1000).toBeLessThanOrEqual(5);
  });
});
