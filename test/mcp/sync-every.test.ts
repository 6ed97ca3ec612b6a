// `mtg mcp --sync-every` and the `sync` tool's time bound wait on the clock the server is given (the
// Context's), so their intervals are tested on a virtual clock in milliseconds instead of minutes.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/cli/context.js';
import { parseGlobals } from '../../src/cli/globals.js';
import { testIO } from '../../src/cli/io.js';
import { type MirrorAccess, mirrorAccess, type SyncSummary } from '../../src/mcp/mirror-access.js';
import { serveStdio } from '../../src/mcp/server.js';
import { InProcessSync, SYNC_TIME_BOUND_MS } from '../../src/mcp/sync-tool.js';
import { expectFew429 } from '../helpers/pacing.js';
import { VirtualClock } from '../helpers/virtual-clock.js';
import { mcpEnv } from './helpers.js';

/**
 * An access whose every sync takes `syncMs` on the clock and says `requests`, and `complete`
 * (given the sync's number, from 1); when each began.
 */
function accessOnClock(
  clock: VirtualClock,
  syncMs: number,
  {
    requests = 3,
    complete = (_nth: number) => true,
  }: { requests?: number; complete?: (nth: number) => boolean } = {},
) {
  const began: number[] = [];
  const access = {
    profile: 'default',
    close: () => {},
    sync: async () => {
      began.push(clock.now());
      const nth = began.length;
      await clock.sleep(syncMs);
      return { complete: complete(nth), requests, durationMs: syncMs } as unknown as SyncSummary;
    },
  } as unknown as MirrorAccess;
  return { access, began };
}

/** `mtg mcp` over `access` with --sync-every on `clock`, on streams nobody reads; ends with `signal`. */
function serveOnClock(
  access: MirrorAccess,
  clock: VirtualClock,
  syncEveryMs: number,
  log: (line: string) => void,
  signal: AbortSignal,
) {
  return serveStdio(access, {
    version: 'test',
    offline: false,
    allowWrites: false,
    log,
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    signal,
    syncEveryMs,
    clock,
  });
}

describe('mtg mcp --sync-every on a clock', () => {
  it('syncs at start, then every interval after the last sync ended; stopping cancels the next one', async () => {
    const clock = new VirtualClock(0);
    const { access, began } = accessOnClock(clock, 5_000);
    const log: string[] = [];
    const controller = new AbortController();
    const served = serveOnClock(access, clock, 600_000, (line) => log.push(line), controller.signal);
    // Ten minutes between syncs, each 5 s long: three syncs in 20 min 10 s of the clock.
    await clock.advance(1_210_000);
    expect(began).toEqual([0, 605_000, 1_210_000]);
    await clock.advance(5_000);
    expect(log).toEqual(Array(3).fill('mtg mcp: synced (3 requests)'));
    controller.abort();
    await served;
    expect(clock.pending).toBe(0);
    await clock.advance(3_600_000);
    expect(began).toHaveLength(3);
  });

  it('a sync not complete says so, and the next interval goes on with it', async () => {
    const clock = new VirtualClock(0);
    const { access, began } = accessOnClock(clock, 0, { requests: 20, complete: (nth) => nth > 1 });
    const log: string[] = [];
    const controller = new AbortController();
    const served = serveOnClock(access, clock, 60_000, (line) => log.push(line), controller.signal);
    await clock.advance(60_000);
    controller.abort();
    await served;
    expect(began).toEqual([0, 60_000]);
    expect(log).toEqual([
      'mtg mcp: synced (20 requests, not complete: more at the next interval)',
      'mtg mcp: synced (20 requests)',
    ]);
  });
});

describe('mtg mcp --sync-every against the sandbox, on a virtual clock', () => {
  it('under tight windows ("3/1s,20/10s"): the first sync complete with few 429s, the next one an interval after it', async () => {
    // The sandbox's windows, the engine's pacing and the interval on one clock; HTTP and files real.
    const clock = new VirtualClock(Date.now(), { realIo: true });
    const m = await mcpEnv(
      {
        limits: '3/1s,20/10s',
        pageSize: 10,
        sizes: { meetings: 4, actionItems: 6, people: 3, companies: 2 },
        clock,
      },
      false,
    );
    const io = testIO();
    io.decideColors(m.env, true);
    const controller = new AbortController();
    const ctx = new Context(parseGlobals({}), io, m.env, controller.signal, [], clock);
    const access = await mirrorAccess(ctx);
    const logged: { line: string; at: number }[] = [];
    let twoSyncs!: () => void;
    const synced = new Promise<void>((resolve) => {
      twoSyncs = resolve;
    });
    const served = serveOnClock(
      access,
      clock,
      600_000,
      (line) => {
        logged.push({ line, at: clock.now() });
        if (logged.length === 2) twoSyncs();
      },
      controller.signal,
    );
    const from = clock.now();
    try {
      await clock.settle(synced);
      expect(logged.map((l) => l.line)).toEqual([
        expect.stringMatching(/^mtg mcp: synced \(\d+ requests\)$/),
        expect.stringMatching(/^mtg mcp: synced \(\d+ requests\)$/),
      ]);
      const first = logged[0]!;
      const second = logged[1]!;
      // The first sync's requests were paced by the windows (more than 3 a second allowed).
      expect(first.at - from).toBeGreaterThan(1_000);
      expect(second.at - first.at).toBeGreaterThanOrEqual(600_000);
      expectFew429(m.sandbox);
      const status = access.status();
      expect(status?.lastSync?.complete).toBe(true);
      expect(status?.counts.meetings).toBe(m.sandbox.snapshot().meetings.length);
    } finally {
      controller.abort();
      await served;
      await ctx.dispose();
      await m.sandbox.close();
    }
  });
});

describe('the sync tool on a clock', () => {
  it('answers running: true after the time bound of the clock, then the next call waits for the summary', async () => {
    const clock = new VirtualClock(0);
    const { access } = accessOnClock(clock, 60_000, { requests: 9 });
    const sync = new InProcessSync(access, { clock });
    const first = await clock.settle(sync.call(undefined));
    expect(clock.now()).toBe(SYNC_TIME_BOUND_MS);
    expect(first).toMatchObject({ complete: false, running: true, durationMs: SYNC_TIME_BOUND_MS });
    const second = await clock.settle(sync.call(undefined));
    expect(clock.now()).toBe(60_000);
    expect(second).toEqual({ complete: true, requests: 9, durationMs: 60_000 });
  });
});
