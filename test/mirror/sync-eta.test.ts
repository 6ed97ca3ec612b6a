// The sync's progress under two rate-limit windows: the ETA follows the tightest window seen (not the
// burst a short window allows), and the transcripts left show in every phase after the meetings walk.
// The windows, the limiter's waits and the estimate run on a virtual clock (the sandbox's and the
// client's): minutes of pacing over real loopback HTTP take a second or two.
import { describe, expect } from 'vitest';
import { openMirror } from '../../src/mirror/open.js';
import { runSync, type SyncProgressEvent } from '../../src/mirror/sync.js';
import { sandboxesTest as it } from '../helpers/fixtures.js';
import { expectFew429 } from '../helpers/pacing.js';
import { tempDir } from '../helpers/temp.js';
import { VirtualClock } from '../helpers/virtual-clock.js';
import { clientFor, engineSync } from './helpers.js';

/** The list walks (the transcripts and the companies' details count what is left of themselves). */
const isList = (e: SyncProgressEvent) => e.phase !== 'transcripts' && e.phase !== 'company-details';

describe('sync progress under "5/1s,30/10s"', () => {
  it('estimates at the pace of the 10 s window from the first transcript on, and shows transcripts left in the list phases after meetings', async ({
    openSandbox,
  }) => {
    const clock = new VirtualClock(Date.now(), { realIo: true });
    const sb = await openSandbox({
      seed: 41,
      limits: '5/1s,30/10s',
      pageSize: 10,
      sizes: { meetings: 40, actionItems: 12, people: 8, companies: 3 },
      clock,
    });
    const { summary, events } = await clock.settle(engineSync(sb, {}, clock)());
    expect(summary.complete).toBe(true);
    expectFew429(sb);
    // After the meetings walk, every list phase knows the transcripts to come.
    const later = events.filter((e) => e.phase !== 'meetings' && isList(e));
    expect(later.length).toBeGreaterThan(0);
    for (const e of later) expect(e.left).toBe(40);
    expect(events.filter((e) => e.phase === 'meetings').every((e) => e.left === undefined)).toBe(true);
    // The list walks already met both windows (the 30-request one is reported once the 5/1s one
    // runs out): from the first transcript on, the ETA is at the 10 s window's pace (about 3/s; the
    // longest Reset seen is 9 s, so 300 ms a request), not the 5/s a short burst shows.
    // (As each request ends; while a wait sends nothing, the estimate counts down: tested below.)
    const transcripts = events.filter((e) => e.phase === 'transcripts' && (e.left ?? 0) > 0 && !e.refreshed);
    expect(transcripts.length).toBeGreaterThan(30);
    for (const e of transcripts) expect(e.etaMs!).toBeGreaterThanOrEqual(e.left! * 290);
  });
});

describe('sync progress counts the pages left, not only the transcripts', () => {
  it('says the time is unknown on a first sync, and counts down pages and transcripts on the next', async ({
    openSandbox,
  }) => {
    const sb = await openSandbox({
      seed: 7,
      limits: 'none',
      pageSize: 5,
      sizes: { meetings: 12, actionItems: 9, people: 6, companies: 3 },
    });
    const engine = engineSync(sb);
    const sync = async () => {
      const { summary, events } = await engine();
      expect(summary.complete).toBe(true);
      return events;
    };
    const first = await sync();
    // No walk ever completed: the pages to come are not known, so neither is the time.
    const firstLists = first.filter((e) => isList(e) && !e.done);
    expect(firstLists.length).toBeGreaterThan(0);
    for (const e of firstLists) {
      expect(e.requestsLeft).toBeUndefined();
      expect(e.etaMs).toBeUndefined();
    }
    const second = await sync();
    const lists = second.filter(isList);
    // Every list phase knows what is left, and it counts down by one per page committed.
    for (const e of lists) expect(e.requestsLeft).toBeDefined();
    const pages = lists.filter((e) => !e.done);
    const totalPages = pages.length;
    expect(totalPages).toBe(first.filter((e) => isList(e) && !e.done).length);
    expect(pages.map((e) => e.requestsLeft)).toEqual(
      Array.from({ length: totalPages }, (_, i) => totalPages - 1 - i),
    );
  }, 60_000);
});

describe('sync progress while it waits for a window ("3/1s,8/5s")', () => {
  it('counts the time left down during the wait, never below what the wait still has', async ({
    openSandbox,
  }) => {
    const clock = new VirtualClock(Date.now(), { realIo: true });
    const sb = await openSandbox({
      seed: 41,
      limits: '3/1s,8/5s',
      pageSize: 10,
      sizes: { meetings: 12, actionItems: 5, people: 5, companies: 2 },
      clock,
    });
    // The waits the limiter announces (as the spinner shows them), and when each event came.
    const waits: { from: number; until: number }[] = [];
    const client = clientFor(
      sb,
      60_000,
      (info) => {
        const at = clock.now();
        waits.push({ from: at, until: at + info.ms });
      },
      clock,
    );
    const mirror = openMirror({ profile: 'default', dataDir: tempDir('mtg-engine-'), baseUrl: sb.baseUrl });
    const events: { e: SyncProgressEvent; at: number }[] = [];
    try {
      const summary = await clock.settle(
        runSync(client, mirror, {}, (e) => events.push({ e, at: clock.now() })),
      );
      expect(summary.complete).toBe(true);
    } finally {
      mirror.close();
    }
    expectFew429(sb);
    // The 8-request window makes the transcripts wait (about 5 s each time).
    const longWaits = waits.filter((w) => w.until - w.from >= 2_000);
    expect(longWaits.length).toBeGreaterThan(0);
    // During every long wait the estimate is shown again (no request ends then), and counts down.
    for (const w of longWaits) {
      const during = events.filter(({ at }) => at > w.from && at < w.until);
      expect(during.length).toBeGreaterThanOrEqual(1);
      for (const { e, at } of during) {
        expect(e.refreshed).toBe(true);
        // Never shorter than what the wait still has (the limiter's margin aside).
        expect(e.etaMs!).toBeGreaterThanOrEqual(w.until - at - 100);
      }
      const etas = during.map(({ e }) => e.etaMs!);
      for (let i = 1; i < etas.length; i++) expect(etas[i]!).toBeLessThan(etas[i - 1]!);
    }
    // A refreshed event repeats the counts of the one before it: only its time left moves.
    for (let i = 1; i < events.length; i++) {
      const { e } = events[i]!;
      if (!e.refreshed) continue;
      const before = events[i - 1]!.e;
      expect({ ...e, etaMs: 0, refreshed: undefined }).toEqual({ ...before, etaMs: 0, refreshed: undefined });
    }
  });
});
