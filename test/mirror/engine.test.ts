import { describe, expect } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { lastSeq, readChanges } from '../../src/mirror/changes.js';
import { openMirror } from '../../src/mirror/open.js';
import { runSync, type SyncProgressEvent } from '../../src/mirror/sync.js';
import { isMine, watch } from '../../src/mirror/watch.js';
import { sandboxesTest as it } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/temp.js';
import { collect } from '../sandbox/helpers.js';
import { clientFor, SMALL } from './helpers.js';

describe('runSync()', () => {
  it('reports progress by phase and treats a transcript answering 404 as a deleted meeting, not an error', async ({
    openSandbox,
  }) => {
    const sb = await openSandbox({ seed: 31, limits: 'none', pageSize: 5, sizes: SMALL });
    const gone = String(((await collect(sb, '/meetings'))[3] as { id: string }).id);
    const client = clientFor(sb, 30_000);
    // The meeting disappears between the walk and its transcript.
    client.hooks.before(({ url }) => {
      if (url.pathname === `/meeting/${gone}/transcript`)
        throw new ApiError(404, 'NOT_FOUND', 'Meeting not found', [], undefined, 'GET', url.pathname);
    });
    const mirror = openMirror({
      profile: 'default',
      dataDir: tempDir('mtg-engine-'),
      baseUrl: sb.baseUrl,
    });
    const events: SyncProgressEvent[] = [];
    try {
      const summary = await runSync(client, mirror, {}, (e) => events.push(e));
      expect(summary.complete).toBe(true);
      // The 404 is not pending for this run (its progress said 0 left); the next walk tombstones it.
      expect(summary.transcripts).toEqual({ fetched: 11, pending: 0 });
      const phases = [...new Set(events.map((e) => e.phase))];
      expect(phases).toEqual([
        'meetings',
        'action-items',
        'my-action-items',
        'people',
        'companies',
        'company-details',
        'transcripts',
      ]);
      const left = events.filter((e) => e.phase === 'transcripts').map((e) => e.left);
      expect(left[0]).toBe(12);
      expect(left[left.length - 1]).toBe(0);
      expect(events.some((e) => e.phase === 'transcripts' && e.etaMs !== undefined)).toBe(true);
      const done = events.filter((e) => e.done).map((e) => e.phase);
      expect(done).toEqual(phases);

      const changes = [...readChanges(mirror.db, { resources: ['transcripts'] })];
      expect(changes).toHaveLength(11);
      expect(changes.map((c) => c.id)).not.toContain(gone);
      expect(lastSeq(mirror.db)).toBeGreaterThan(0);
      expect([...readChanges(mirror.db, { after: lastSeq(mirror.db) })]).toEqual([]);
    } finally {
      mirror.close();
      await client.close();
    }
  });
});

describe('watch()', () => {
  it('a sync that fails in the default-assignee walk hands over no action-item event until "mine" is known', async ({
    openSandbox,
  }) => {
    const sb = await openSandbox({ seed: 33, limits: 'none', pageSize: 5, sizes: SMALL });
    const client = clientFor(sb, 30_000);
    const request = client.request.bind(client);
    let failMine = false;
    // The default-assignee walk is the action-item list asked without assigneeType.
    client.request = ((req: Parameters<typeof request>[0]) => {
      const asked = req.url?.href ?? `${req.path}?${JSON.stringify(req.query ?? {})}`;
      return failMine && asked.includes('/action-items') && !asked.includes('assigneeType')
        ? Promise.reject(new ApiError(500, 'INTERNAL', 'down', [], undefined, 'GET', '/action-items'))
        : request(req);
    }) as typeof client.request;
    const mirror = openMirror({
      profile: 'default',
      dataDir: tempDir('mtg-watch-engine-'),
      baseUrl: sb.baseUrl,
    });
    try {
      expect((await runSync(client, mirror, { only: ['action-items'] })).complete).toBe(true);
      const printed: { id: string; mine: boolean }[] = [];
      const reports: string[] = [];
      let syncs = 0;
      await watch(
        mirror,
        { intervalMs: 20, consumer: 'test', resources: ['action-items'], fromStart: false },
        {
          signal: new AbortController().signal,
          maxSyncs: 2,
          sync: (committed) => {
            syncs++;
            if (syncs === 1) {
              // New items, some of them assigned to the key's owner; this sync fails before it knows.
              sb.churn(3);
              failMine = true;
            } else failMine = false;
            return runSync(client, mirror, { only: ['action-items'] }, (e) => {
              if (e.phase === 'action-items' || (e.phase === 'my-action-items' && !e.done)) return;
              committed();
            });
          },
          print: async (event) => {
            printed.push({ id: String(event.id), mine: isMine(mirror.db, String(event.id)) });
          },
          report: (line) => reports.push(line),
          warn: () => {},
          waiting: () => {},
        },
      );
      expect(reports.some((r) => r.startsWith('Sync failed'))).toBe(true);
      expect(printed.length).toBeGreaterThan(0);
      // What each event said about "mine" is what the completed walk says.
      for (const p of printed) expect(p.mine, p.id).toBe(isMine(mirror.db, p.id));
      expect(printed.some((p) => p.mine)).toBe(true);
    } finally {
      mirror.close();
    }
  }, 60_000);
});
