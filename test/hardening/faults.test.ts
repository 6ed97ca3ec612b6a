// Under injected server errors and dropped connections, a 5,000-item export still returns every
// item exactly once; a fault that never clears ends with exit 1 and says how many tries it took; a
// write answered 500 (never sent again) says it may have been applied, and how to check.
import { describe, expect } from 'vitest';
import { sandboxEnv } from '../helpers/cli.js';
import { sandboxesTest as it } from '../helpers/fixtures.js';
import { runInProcess } from '../helpers/inprocess.js';
import { EXPORT_ARGS, ndjsonIds, sameIdsOnce } from './helpers.js';

const SIZES = { actionItems: 5000 };
const PAGE_SIZE = 100;

describe('export under faults "500:0.15,reset:0.1"', () => {
  const seeds = [1, 2, 3];
  it.for(seeds)('seed %i: every item exactly once', async (seed, { openSandbox }) => {
    // The data are seeded by `seed` too, so the fault-free reference must use the same seed.
    const clean = await openSandbox({ seed, pageSize: PAGE_SIZE, limits: 'none', sizes: SIZES });
    const ref = await runInProcess([...EXPORT_ARGS, '--format', 'ndjson'], { env: sandboxEnv(clean) });
    const faulty = await openSandbox({
      seed,
      pageSize: PAGE_SIZE,
      limits: 'none',
      sizes: SIZES,
      faults: '500:0.15,reset:0.1',
    });
    // 25% of attempts fail. With the default 5 retries a page is lost with probability 0.25^6
    // (~1/4096), so over 50 pages an export fails about once in 80 runs: a flaky test. With 12
    // retries a page is lost with probability 0.25^13 (~1.5e-8): never in practice.
    const r = await runInProcess([...EXPORT_ARGS, '--format', 'ndjson', '--max-retries', '12', '--quiet'], {
      env: sandboxEnv(faulty),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const ids = ndjsonIds(r.stdout);
    expect(ids.length).toBe(ndjsonIds(ref.stdout).length);
    expect(sameIdsOnce(ids, ndjsonIds(ref.stdout))).toBe(true);
    // The faults really struck: more requests than pages.
    const failed = faulty.requests.filter((q) => q.status !== 200).length;
    expect(failed).toBeGreaterThan(5);
  });

  it('a failure that persists ends with exit 1, naming what failed and after how many tries', async ({
    openSandbox,
  }) => {
    const broken = await openSandbox({ pageSize: PAGE_SIZE, limits: 'none', faults: '500:1' });
    const r = await runInProcess([...EXPORT_ARGS, '--format', 'ndjson', '--max-retries', '2'], {
      env: sandboxEnv(broken),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    const last = lines[lines.length - 1]!;
    expect(last).toMatch(/^mtg: GET \/action-items failed with HTTP 500: .*\(after 3 tries\)$/);
    expect(broken.requests.length).toBe(3);
  });
});

describe('a write answered 500', () => {
  it.for<[string[], string, string | undefined]>([
    [
      ['action-items', 'create', 'Send the deck'],
      'POST /action-items',
      'to check: mtg action-items list --assignee anyone --status all --fields id,title',
    ],
    [
      ['tags', 'create', 'Q3'],
      'POST /tag',
      'to check: run it again; if it was applied, the server refuses the name "Q3" as taken',
    ],
    [['api', '/action-items', '--method', 'POST', '--field', 'title=x'], 'POST /action-items', undefined],
  ])(
    '%j: sent once, exit 1, says the write may have been applied and how to check',
    async ([args, what, check], { openSandbox }) => {
      const broken = await openSandbox({ limits: 'none', faults: '500:1' });
      const r = await runInProcess(args, { env: sandboxEnv(broken) });
      expect(r.code).toBe(1);
      expect(broken.requests.length).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines[0]).toMatch(
        new RegExp(
          `^mtg: ${what} failed with HTTP 500: .*; the write may have been applied: check before running it again$`,
        ),
      );
      if (check) expect(lines.slice(1)).toEqual([`  ${check}`]);
    },
  );
});
