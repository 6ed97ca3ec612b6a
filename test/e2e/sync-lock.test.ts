// The mirror's lock between processes: a second `mtg sync` of the same profile exits 1 at once
// naming the running sync's PID while reads go on, and a lock left by a SIGKILLed sync is taken
// over. Real processes: the lock holds a PID, and one of them is killed.
import { describe, expect, it } from 'vitest';
import { spawnCli, waitUntil } from '../hardening/helpers.js';
import { mirrorEnvs, sql } from '../mirror/helpers.js';

/** mirrorEnv(), each stopped after this file's tests. */
const env = mirrorEnvs();

describe('the sync lock', () => {
  it('a second sync of the same profile exits 1 at once naming the running PID; reads are not blocked', async () => {
    const m = await env({ seed: 12, latencyMs: 150 });
    const running = spawnCli(['sync', '--quiet'], m.env);
    await waitUntil(
      () => {
        try {
          return sql(m.dbPath, "SELECT 1 FROM meta WHERE key = 'sync_lock'").length === 1;
        } catch {
          return false;
        }
      },
      20_000,
      'the first sync to take the lock',
    );
    const second = await m.sync();
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`PID ${running.child.pid}`);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    const status = await m.mtg(['mirror', 'status', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).syncRunningPid).toBe(running.child.pid);
    const reset = await m.mtg(['mirror', 'reset']);
    expect(reset.code).toBe(1);
    expect(reset.stderr).toContain(`PID ${running.child.pid}`);
    const done = await running.done;
    expect(done.code).toBe(0);
    expect(sql(m.dbPath, "SELECT 1 FROM meta WHERE key = 'sync_lock'")).toHaveLength(0);
  });

  it('a lock left by a killed sync is taken over', async () => {
    const m = await env({ seed: 13, latencyMs: 100 });
    const running = spawnCli(['sync', '--quiet'], m.env);
    await waitUntil(
      () => {
        try {
          return sql(m.dbPath, 'SELECT 1 FROM meetings').length > 0;
        } catch {
          return false;
        }
      },
      20_000,
      'the first page',
    );
    running.child.kill('SIGKILL');
    await running.done;
    const r = await m.sync();
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).complete).toBe(true);
  });
});
