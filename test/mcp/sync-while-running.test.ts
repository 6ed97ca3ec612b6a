// A `sync` call while a sync runs already (this server's --sync-every, or another process holding
// the lock) is told that it runs, with what it knows, so the assistant can wait: never a bare error.
import { describe, expect, it } from 'vitest';
import type { MirrorAccess, SyncSummary } from '../../src/mcp/mirror-access.js';
import { InProcessSync } from '../../src/mcp/sync-tool.js';
import { SyncLockedError } from '../../src/mirror/lock.js';
import { openMirror } from '../../src/mirror/open.js';
import { runSync } from '../../src/mirror/sync.js';
import { clientFor } from '../mirror/helpers.js';
import { connect, mcpEnv, updateMirror } from './helpers.js';

type SyncOptions = Parameters<MirrorAccess['sync']>[0];

/** An access whose sync runs until `finish` is called, reporting `requests` on the way. */
function slowAccess() {
  let finish!: (s: SyncSummary) => void;
  let options: SyncOptions | undefined;
  const access = {
    profile: 'default',
    sync: (o: SyncOptions) => {
      options = o;
      return new Promise<SyncSummary>((resolve) => {
        finish = resolve;
      });
    },
  } as unknown as MirrorAccess;
  return { access, finish: (s: SyncSummary) => finish(s), progress: (n: number) => options?.onProgress?.(n) };
}

const SUMMARY = { complete: true, requests: 7, durationMs: 5 } as unknown as SyncSummary;

describe('the sync tool while a sync runs', () => {
  it("during --sync-every's run: answers running: true with its progress, then the next call waits for it and gets its summary", async () => {
    const s = slowAccess();
    const sync = new InProcessSync(s.access, { timeBoundMs: 20 });
    const background = sync.run();
    s.progress(3);
    const first = await sync.call(undefined);
    expect(first).toMatchObject({ complete: false, running: true, requests: 3 });
    expect((first as { note: string }).note).toMatch(/call sync again/);
    const second = sync.call(undefined);
    s.finish(SUMMARY);
    expect(await second).toEqual(SUMMARY);
    expect(await background).toEqual(SUMMARY);
  });

  it("while another process holds the lock: running: true with that process's PID and start, not an error", async () => {
    const access = {
      profile: 'default',
      sync: async () => {
        throw new SyncLockedError({ pid: 4242, startedAt: '2026-11-27T10:00:00.000Z' }, 'default');
      },
    } as unknown as MirrorAccess;
    const answer = await new InProcessSync(access, { timeBoundMs: 20 }).call(undefined);
    expect(answer).toMatchObject({
      complete: false,
      running: true,
      pid: 4242,
      since: '2026-11-27T10:00:00.000Z',
    });
    expect((answer as { note: string }).note).toMatch(/another process \(PID 4242/);
  });
});

describe("the sync tool while another process's sync runs (its progress read from the mirror)", () => {
  it('answers the phase it walks and its counts so far, as that sync committed them', async () => {
    // Paced to one request a second: the running sync stands on a page while the tool answers.
    const m = await mcpEnv({ limits: '1/1s,60/1m' }, false);
    const c = await connect(m.env);
    const stop = new AbortController();
    const mirror = openMirror({ profile: 'default', dataDir: m.dataDir, baseUrl: m.sandbox.baseUrl });
    try {
      let walking!: () => void;
      const onActionItems = new Promise<void>((resolve) => {
        walking = resolve;
      });
      const running = runSync(clientFor(m.sandbox), mirror, { signal: stop.signal }, (e) => {
        if (e.phase === 'action-items' && e.pages >= 1) walking();
      }).catch(() => undefined);
      await onActionItems;
      // The engine's lock names this process; as another process's lock it names our parent (alive).
      updateMirror(
        m.dataDir,
        "UPDATE meta SET value = ? WHERE key = 'sync_lock'",
        JSON.stringify({ pid: process.ppid, startedAt: '2026-11-28T10:00:00.000Z' }),
      );
      const r = await c.call('sync');
      expect(r.isError).toBe(false);
      expect(r.data).toMatchObject({ running: true, pid: process.ppid });
      const p = r.data.progress;
      expect(p).toMatchObject({ phase: 'action-items', lists: { total: 7 } });
      expect(p.lists.done).toBeGreaterThanOrEqual(1);
      expect(p.pages).toBeGreaterThanOrEqual(1);
      expect(p.items).toBeGreaterThanOrEqual(5);
      expect(p.requests).toBeGreaterThanOrEqual(4);
      expect(r.data.note).toMatch(/walking action-items \(page \d+, \d+ items so far\), \d of 7 lists done/);
      stop.abort();
      await running;
    } finally {
      stop.abort();
      mirror.close();
      await c.close();
      await m.sandbox.close();
    }
  }, 30_000);
});
