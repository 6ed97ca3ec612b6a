// `mtg watch` in this process against a sandbox answering 30% of requests with 500, no retries, on a
// virtual clock (watch's interval): most syncs fail part way, each commits what it got, and the next
// goes on; every change is handed over once, and an interrupt ends it with 130 and an intact mirror.
// Tens of 1 s intervals of the clock in a second or two. (The watch as a process, a sandbox gone and
// back, and signals: test/e2e/watch-stream.test.ts.)
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../helpers/virtual-clock.js';
import {
  changesAfter,
  completeRuns,
  eventsOf,
  expectSameEvents,
  lastSeq,
} from '../../helpers/watch-events.js';
import { watchInProcess } from '../../helpers/watch-in-process.js';
import { integrityCheck, mirrorEnv } from '../../mirror/helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('mtg watch against a sandbox answering 500s', () => {
  it('goes on after failed syncs: complete syncs come, every event is handed over once, an interrupt exits 130', async () => {
    const clock = new VirtualClock(Date.now(), { realIo: true });
    const f = await mirrorEnv({ seed: 15, faults: '500:0.3', pageSize: 50 });
    cleanups.push(() => f.sandbox.close());
    const watch = watchInProcess(
      ['--interval', '1s', '--from-start', '--no-transcripts', '--max-retries', '0'],
      f.env,
      clock,
    );
    const { io, until } = watch;
    const failed = () => (io.stderr().match(/Sync failed: /g) ?? []).length;

    await until('three failed syncs', () => failed() >= 3);
    await until('a complete sync', () => completeRuns(f) > 0);
    f.sandbox.churn(1);
    const before = completeRuns(f);
    await until('a complete sync after the churn', () => completeRuns(f) >= before + 2);
    await until('every event', () => (eventsOf(io.stdout()).at(-1)?.seq ?? 0) >= lastSeq(f));
    expect(watch.ended()).toBe(false);
    expect(await watch.stop()).toBe(130);
    expectSameEvents(eventsOf(io.stdout()), await changesAfter(f, 0));
    expect(integrityCheck(f.dbPath)).toBe('ok');
  });
});
