import { channel } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { flush, VirtualClock } from '../helpers/virtual-clock.js';

describe('VirtualClock', () => {
  it('runs due timers in order of their time, then of their setting, each at its own moment', async () => {
    const clock = new VirtualClock(0);
    const seen: string[] = [];
    clock.timeout(() => seen.push(`b@${clock.now()}`), 200);
    clock.timeout(() => seen.push(`a@${clock.now()}`), 100);
    clock.timeout(() => seen.push(`a2@${clock.now()}`), 100);
    clock.timeout(() => seen.push(`late@${clock.now()}`), 1_000);
    await clock.advance(500);
    expect(seen).toEqual(['a@100', 'a2@100', 'b@200']);
    expect(clock.now()).toBe(500);
    expect(clock.pending).toBe(1);
  });

  it('lets promise chains run between timers, so a timer set by one that ran is run too', async () => {
    const clock = new VirtualClock(0);
    const seen: number[] = [];
    const loop = async () => {
      for (let i = 0; i < 3; i++) {
        await clock.sleep(100);
        await Promise.resolve();
        seen.push(clock.now());
      }
    };
    const done = loop();
    await clock.advance(250);
    expect(seen).toEqual([100, 200]);
    await clock.advance(50);
    await done;
    expect(seen).toEqual([100, 200, 300]);
  });

  it('cancels: a cancelled timeout never runs, an aborted sleep ends at once', async () => {
    const clock = new VirtualClock(0);
    let ran = false;
    const cancel = clock.timeout(() => {
      ran = true;
    }, 10);
    cancel();
    const controller = new AbortController();
    const slept = clock.sleep(60_000, controller.signal);
    controller.abort();
    await slept;
    expect(clock.now()).toBe(0);
    await clock.advance(100_000);
    expect(ran).toBe(false);
    expect(clock.pending).toBe(0);
  });

  it('settle() jumps from timer to timer while the promise waits on nothing else', async () => {
    const clock = new VirtualClock(0);
    const work = async () => {
      await clock.sleep(60_000);
      await clock.sleep(1_000);
      return clock.now();
    };
    await expect(clock.settle(work())).resolves.toBe(61_000);
  });

  it('settle() is bounded: a loop that never ends fails instead of hanging', async () => {
    const clock = new VirtualClock(0);
    const forever = async () => {
      for (;;) await clock.sleep(1_000);
    };
    await expect(clock.settle(forever(), { maxMs: 10_000 })).rejects.toThrow(/10000 ms/);
    await expect(new VirtualClock(0).settle(new Promise(() => undefined))).rejects.toThrow(/nothing pending/);
  });

  it('settle() passes a rejection on', async () => {
    const clock = new VirtualClock(0);
    const failing = async () => {
      await clock.sleep(5);
      throw new Error('boom');
    };
    await expect(clock.settle(failing())).rejects.toThrow('boom');
  });

  it('with realIo, never jumps to a timer set as a request starts, whichever turn it starts in', async () => {
    // mtg's transport sets an attempt's --timeout deadline on the clock, then undici creates the
    // request. Started a turn or two after the clock last looked for requests in flight, the
    // request must still keep the clock from jumping to its deadline (a paced-writes run at load
    // ended "no answer within 30 s" in a few ms of real time).
    const created = channel('undici:request:create');
    const answered = channel('undici:request:trailers');
    for (let turns = 0; turns < 6; turns++) {
      const clock = new VirtualClock(0, { realIo: true });
      const request = {};
      const attempt = async () => {
        for (let i = 0; i < turns; i++) await flush();
        let timedOut = false;
        const cancel = clock.timeout(() => {
          timedOut = true;
        }, 30_000);
        created.publish({ request });
        await new Promise((resolve) => setTimeout(resolve, 20)); // the answer, in real time
        answered.publish({ request, trailers: [] });
        cancel();
        return timedOut;
      };
      expect(await clock.settle(attempt()), `a request started after ${turns} turns`).toBe(false);
    }
  });
});
