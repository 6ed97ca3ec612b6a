// `mtg watch` in this process against a sandbox with tight windows, on a virtual clock (the sandbox's
// windows, the limiter's waits and watch's interval): an interval shorter than a sync needs at the
// sustainable rate stretches, with one warning, and the next sync comes that much later. Minutes of
// the clock in a second or two. (The watch as a process, its signals and stream: test/e2e/watch-stream.test.ts.)
import { afterEach, describe, expect, it } from 'vitest';
import { expectFew429 } from '../../helpers/pacing.js';
import { VirtualClock } from '../../helpers/virtual-clock.js';
import { mirrorCount } from '../../helpers/watch-events.js';
import { watchInProcess } from '../../helpers/watch-in-process.js';
import { mirrorEnv } from '../../mirror/helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('mtg watch under tight windows', () => {
  it('an interval shorter than a sync needs at the sustainable rate stretches, with one warning, its few 429s waited out', async () => {
    const clock = new VirtualClock(Date.now(), { realIo: true });
    // 12 requests per 10 s sustain 1.2 per second; a sync of these lists needs about 20 requests, so
    // its first sync sees the window refill. (Until a refill is seen, a window's period is taken as
    // the spec's next "per second or per minute" at or above its Reset: a minute here.)
    const m = await mirrorEnv({ seed: 16, limits: '5/1s,12/10s', clock });
    cleanups.push(() => m.sandbox.close());
    const watch = watchInProcess(['--interval', '1s', '--no-transcripts'], m.env, clock);
    const runs = (where: string) => mirrorCount(m, `SELECT count(*) AS n FROM runs ${where}`);
    // When each of the first two syncs began, on the clock (each seen within 500 ms of it).
    const began: number[] = [];
    await watch.until(
      'its second sync',
      () => {
        if (runs('') > began.length) began.push(clock.now());
        return runs('WHERE finished_at IS NOT NULL') >= 2;
      },
      600_000,
    );
    const [first, second] = began;

    const stderr = watch.io.stderr();
    const requests = Number(/A sync needs (\d+) requests/.exec(stderr)?.[1]);
    const stretched = /syncs run every (\d+)s instead of every 1s/.exec(stderr);
    expect(stretched, stderr).not.toBe(null);
    const seconds = Number(stretched![1]);
    // The window's length is learned from the RateLimit-Reset values seen, which are whole seconds:
    // within a second of the 10 s window either way.
    const sustainable = (requests * 10) / 12;
    expect(seconds).toBeLessThanOrEqual(Math.ceil(sustainable * 1.1) + 1);
    expect(seconds).toBeGreaterThanOrEqual(Math.floor(sustainable * 0.8));
    // The next sync began the stretched interval after the first, not the 1 s asked for (each seen
    // within 500 ms of the clock).
    expect(second! - first!).toBeGreaterThanOrEqual(seconds * 1000 - 500);
    expect(stderr.match(/warning:/g)).toHaveLength(1);
    expectFew429(m.sandbox);

    expect(await watch.stop()).toBe(130);
  });
});
