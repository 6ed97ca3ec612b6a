// watch() waits between syncs on the clock it is given (the Context's), so its intervals are tested
// on a virtual clock in milliseconds instead of real minutes.
import { describe, expect, it } from 'vitest';
import { openMirror } from '../../src/mirror/open.js';
import type { SyncSummary } from '../../src/mirror/sync.js';
import { type WatchHooks, watch } from '../../src/mirror/watch.js';
import { tempDir } from '../helpers/temp.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

/** Runs watch() for `syncs` syncs whose summaries say `requests`; returns when each began and what it said. */
async function watchOnClock(syncs: number, intervalMs: number, requests: number, rate?: number) {
  const clock = new VirtualClock();
  const mirror = openMirror({
    profile: 'default',
    dataDir: tempDir('mtg-watch-clock-'),
    baseUrl: 'http://127.0.0.1:9',
  });
  const began: number[] = [];
  const waiting: number[] = [];
  const warnings: string[] = [];
  const hooks: WatchHooks = {
    signal: new AbortController().signal,
    clock,
    maxSyncs: syncs,
    rateLimit: () => rate,
    sync: async () => {
      began.push(clock.now());
      return { complete: false, requests } as unknown as SyncSummary;
    },
    print: async () => {},
    report: () => {},
    warn: (line) => warnings.push(line),
    waiting: (msLeft) => waiting.push(msLeft),
  };
  try {
    await clock.settle(
      watch(mirror, { intervalMs, consumer: 'test', resources: [], fromStart: false }, hooks),
    );
  } finally {
    mirror.close();
  }
  return { since: began.map((t) => t - began[0]!), waiting, warnings };
}

describe('watch() on a clock', () => {
  it('starts a sync every interval, counting down each second between them', async () => {
    const { since, waiting, warnings } = await watchOnClock(3, 60_000, 5, 2);
    expect(since).toEqual([0, 60_000, 120_000]);
    expect(waiting.slice(0, 3)).toEqual([60_000, 59_000, 58_000]);
    expect(waiting).toHaveLength(120);
    expect(warnings).toEqual([]);
  });

  it('stretches the interval to what the sync needs at the sustainable rate, warning once', async () => {
    // 40 requests at 0.5 a second take 80 s: syncs every 80 s instead of every 10 s.
    const { since, warnings } = await watchOnClock(3, 10_000, 40, 0.5);
    expect(since).toEqual([0, 80_000, 160_000]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('instead of every 10s');
  });
});
