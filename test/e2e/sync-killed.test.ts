// A sync killed with SIGKILL at random moments, and a sync under injected faults, still ends
// exact: the same state as the server, integrity ok, each object reported once, and no transcript
// fetched again that was already stored for its meeting's current updatedAt. A sync stopped by
// SIGINT still prints its summary; one killed leaves its request count in the mirror. Real
// processes: signals and SIGKILL; the syncs after them run in-process.
import { afterAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { spawnCli, waitUntil } from '../hardening/helpers.js';
import {
  integrityCheck,
  type MirrorEnv,
  mirrorEnv,
  parseChanges,
  readMirror,
  SMALL,
  serverContent,
  snapshotContent,
  sql,
  transcriptRequests,
  withoutTombstones,
} from '../mirror/helpers.js';

const opened: MirrorEnv[] = [];
const extra: Sandbox[] = [];
afterAll(async () => {
  await Promise.all([...opened.map((m) => m.sandbox.close()), ...extra.map((s) => s.close())]);
});

/** mulberry32: the kill moments are random, but the same for a seed on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function storedTranscripts(path: string): Set<string> {
  try {
    return new Set(sql<{ id: string }>(path, 'SELECT meeting_id AS id FROM transcripts').map((r) => r.id));
  } catch {
    return new Set(); // killed before the file had its schema
  }
}

function expectEachReportedOnce(stdout: string): void {
  const events = parseChanges(stdout);
  const keys = events.map((e) => `${e.resource}/${e.id}`);
  expect(new Set(keys).size).toBe(keys.length);
  expect(events.every((e) => e.change === 'created')).toBe(true);
}

describe('mtg sync killed with SIGKILL', () => {
  it.each([1, 2, 3, 4])(
    'seed %i: three kills at random moments, then a sync: exact, nothing refetched',
    async (seed) => {
      const random = prng(seed);
      const m = await mirrorEnv({ seed, latencyMs: 15 });
      opened.push(m);
      let kills = 0;
      for (let i = 0; i < 3; i++) {
        const storedBefore = storedTranscripts(m.dbPath);
        const mark = m.sandbox.requests.length;
        const run = spawnCli(['sync', '--quiet'], m.env);
        // Wait for the process to send something, then a random while more (up to ~1 s of a sync).
        await waitUntil(
          () => m.sandbox.requests.length > mark || run.child.exitCode !== null,
          20_000,
          'a request',
        );
        await new Promise((r) => setTimeout(r, Math.floor(random() * 900)));
        if (run.child.kill('SIGKILL')) kills++;
        await run.done;
        // Transcripts stored before this run were not asked for again (nothing changed meanwhile).
        for (const id of transcriptRequests(m.sandbox, mark).keys()) expect(storedBefore.has(id)).toBe(false);
        expect(integrityCheck(m.dbPath)).toBe('ok');
      }
      expect(kills).toBeGreaterThan(0);
      // The kills struck mid-sync: runs that never finished.
      expect(sql(m.dbPath, 'SELECT count(*) AS n FROM runs WHERE finished_at IS NULL')[0]).not.toEqual({
        n: 0,
      });

      const stored = storedTranscripts(m.dbPath);
      const mark = m.sandbox.requests.length;
      const final = await m.sync();
      expect(final.code).toBe(0);
      expect(JSON.parse(final.stdout).complete).toBe(true);
      for (const id of transcriptRequests(m.sandbox, mark).keys()) expect(stored.has(id)).toBe(false);
      expect(integrityCheck(m.dbPath)).toBe('ok');
      const content = readMirror(m.dbPath);
      expect(content.tombstones).toEqual({ meetings: [], actionItems: [], people: [], companies: [] });
      expect(withoutTombstones(content)).toEqual(await serverContent(m.sandbox));
      expectEachReportedOnce((await m.mtg(['changes', '--after', '0', '--json'])).stdout);
      // Passages match the meetings: none for a meeting the mirror does not hold.
      const orphans = sql(
        m.dbPath,
        // A passage's meeting is its rowid's high bits (src/mirror/passages.ts: base * 2^23 + …).
        'SELECT count(*) AS n FROM passages WHERE (rowid >> 23) NOT IN (SELECT passage_base FROM meetings WHERE deleted_at IS NULL AND passage_base IS NOT NULL)',
      );
      expect(orphans).toEqual([{ n: 0 }]);
    },
    90_000,
  );
});

describe('mtg sync killed while the data changes', () => {
  it.each([5, 6, 7])(
    'seed %i: kill, churn, sync, sync: exact again',
    async (seed) => {
      const random = prng(seed);
      const m = await mirrorEnv({ seed, latencyMs: 15 });
      opened.push(m);
      expect((await m.sync()).code).toBe(0);
      m.sandbox.churn(2);
      const mark = m.sandbox.requests.length;
      const run = spawnCli(['sync', '--quiet'], m.env);
      await waitUntil(
        () => m.sandbox.requests.length > mark || run.child.exitCode !== null,
        20_000,
        'a request',
      );
      await new Promise((r) => setTimeout(r, Math.floor(random() * 500)));
      run.child.kill('SIGKILL');
      await run.done;
      m.sandbox.churn(2);
      // A walk resumed from its saved cursor shows the list as it was when the walk began; the sync
      // after it sees the rest.
      expect(JSON.parse((await m.sync()).stdout).complete).toBe(true);
      expect(JSON.parse((await m.sync()).stdout).complete).toBe(true);
      expect(integrityCheck(m.dbPath)).toBe('ok');
      expect(withoutTombstones(readMirror(m.dbPath))).toEqual(snapshotContent(m.sandbox));
    },
    90_000,
  );
});

describe('mtg sync under faults "500:0.15,reset:0.1"', () => {
  it.each([1, 2, 3])(
    'seed %i: exact, nothing duplicated',
    async (seed) => {
      const m = await mirrorEnv({ seed, faults: '500:0.15,reset:0.1' });
      opened.push(m);
      // The data are seeded by `seed`; faults never change data, so a fault-free twin is the reference.
      const clean = await startSandbox({ seed, limits: 'none', pageSize: 5, sizes: SMALL });
      extra.push(clean);
      // 25% of attempts fail; 12 retries make losing a request (0.25^13) negligible.
      const r = await m.sync(['--max-retries', '12']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).complete).toBe(true);
      expect(m.sandbox.requests.filter((q) => q.status !== 200).length).toBeGreaterThan(0);
      expect(integrityCheck(m.dbPath)).toBe('ok');
      expect(withoutTombstones(readMirror(m.dbPath))).toEqual(await serverContent(clean));
      expectEachReportedOnce((await m.mtg(['changes', '--json'])).stdout);
    },
    60_000,
  );
});

describe('mtg sync --json stopped by SIGINT', () => {
  it('SIGINT (exit 130) still prints the summary object', async () => {
    const m = await mirrorEnv({ seed: 23, limits: '2/1s' });
    opened.push(m);
    const run = spawnCli(['sync', '--json'], m.env);
    await waitUntil(() => m.sandbox.requests.length >= 3, 20_000, 'three requests');
    run.child.kill('SIGINT');
    const { code } = await run.done;
    expect(code).toBe(130);
    const summary = JSON.parse(run.stdout());
    expect(summary.complete).toBe(false);
    expect(summary.requests).toBeGreaterThanOrEqual(3);
  });
});

describe('a sync killed with SIGKILL', () => {
  it('leaves its request count so far in the mirror (mirror status)', async () => {
    const m = await mirrorEnv({ seed: 30, limits: '10/1s' });
    opened.push(m);
    const run = spawnCli(['sync', '--quiet'], m.env);
    await waitUntil(() => m.sandbox.requests.length >= 12, 30_000, 'twelve requests');
    run.child.kill('SIGKILL');
    await run.done;
    const sent = m.sandbox.requests.length;
    const r = await m.mtg(['mirror', 'status', '--json']);
    expect(r.code).toBe(0);
    const last = JSON.parse(r.stdout).lastSync;
    expect(last.finishedAt).toBeNull();
    // Counted with each committed page or transcript: at most the requests in flight differ (the
    // next page is asked for, and counted, while one is written).
    expect(last.requests).toBeGreaterThanOrEqual(10);
    expect(last.requests).toBeLessThanOrEqual(sent + 1);
  });
});
