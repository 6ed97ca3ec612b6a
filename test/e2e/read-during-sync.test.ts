// An offline read is not blocked by a sync running in another process and sees the last committed
// state, while the sync goes on. A real process for the sync: it runs until SIGTERM.
import { describe, expect, it } from 'vitest';
import { spawnCli, waitUntil } from '../hardening/helpers.js';
import { mirrorEnvs, sql } from '../mirror/helpers.js';

/** mirrorEnv(), each stopped after this file's tests. */
const env = mirrorEnvs();

describe('--offline', () => {
  it('is not blocked by a running sync and sees the last committed state', async () => {
    const slow = await env({ seed: 22, latencyMs: 150, pageSize: 2 });
    // A first sync has walked the meetings to their end (a list no sync has finished is refused
    // offline); the running one then commits pages of the lists it walks next.
    const first = await slow.mtg(['sync', '--only', 'meetings', '--no-transcripts']);
    expect(first.code, first.stderr).toBe(0);
    const sync = spawnCli(['sync'], slow.env);
    try {
      // Wait until the running sync has committed a page.
      await waitUntil(
        () => {
          try {
            return sql<{ n: number }>(slow.dbPath, 'SELECT count(*) AS n FROM action_items')[0]!.n > 0;
          } catch {
            return false;
          }
        },
        60_000,
        'a page committed by the running sync',
      );
      const before = slow.sandbox.requests.length;
      const r = await slow.mtg(['meetings', 'list', '--json', '--offline']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
      // The sync was still running while the read finished, and goes on (a read can finish
      // within one of its 150 ms requests, so its progress is awaited, not assumed).
      expect(sync.child.exitCode).toBeNull();
      await waitUntil(() => slow.sandbox.requests.length > before, 30_000, 'a request after the read');
    } finally {
      sync.child.kill('SIGTERM');
      await sync.done;
    }
  }, 90_000);
});
