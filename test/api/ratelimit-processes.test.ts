// Two mtg commands of one user on one key, on one machine, at once (issue #31): a batch running, and a
// second one started beside it. Each has its own limiter; through the data folder they share their
// requests and answers (src/api/ratelimit-file.ts) and pace as one client. Real loopback HTTP and
// real files; the sandbox's windows and the waits on a virtual clock (minutes take a second or two).
// Judged as real-time pacing is (test/helpers/pacing.ts): 429s bounded, not zero.
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { expectFew429 } from '../helpers/pacing.js';
import { tempDir } from '../helpers/temp.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('mtg commands on one key, sharing the data folder', () => {
  // A batch of 40 updates, and while it runs, a short command every 15 s (cron, a script): without
  // sharing, each new command's first request goes blind and meets the window the batch emptied.
  it('the Free plan: short commands started beside a running batch wait their turn instead of a 429', async () => {
    const clock = new VirtualClock(Date.now(), { realIo: true });
    sandbox = await startSandbox({ port: 0, limits: '3/1s,20/1m', sizes: { actionItems: 80 }, clock });
    const env = { ...sandboxEnv(sandbox), MTG_DATA_DIR: tempDir('mtg-shared-data-') };
    const batch = (from: number, n: number) =>
      runInProcess(['action-items', 'update', '--stdin', '--status', 'done', '--format', 'ndjson'], {
        env,
        stdin: `${ids(from, n).join('\n')}\n`,
        clock,
      });
    const later = [1, 2, 3, 4, 5].map((k) => clock.sleep(k * 15_000).then(() => batch(40 + 4 * k, 4)));
    const results = await clock.settle(Promise.all([batch(1, 40), ...later]));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expectFew429(sandbox);
  });
});
