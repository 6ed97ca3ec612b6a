// Issue 29, item 1: `mtg sql` as a real process, stuck in one step of SQLite that never returns to
// JavaScript (a recursive CTE without end): SIGINT (Ctrl-C) and SIGTERM end it at once, exit 130,
// and the process that ran the statement is gone with it; a `mtg sql` killed outright (SIGKILL)
// does not leave its statement running. The time limit and PRAGMA: test/commands/sql/sql.test.ts.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openMirror } from '../../src/mirror/open.js';
import { waitUntil } from '../hardening/helpers.js';
import { type Spawned, spawnCli } from '../helpers/cli.js';
import { childrenOf, cpuSeconds, running, within } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c';

let env: Record<string, string>;
beforeAll(() => {
  const dir = tempDir('mtg-sql-e2e-');
  env = { MTG_DATA_DIR: dir };
  openMirror({ profile: 'default', dataDir: dir, baseUrl: 'https://api.example.com' }).close();
});

/**
 * `mtg sql RUNAWAY`, once the statement has been stepping for a while; `statement`: the process
 * that runs it (mtg's child; mtg itself, where it has none). Killed after the test whatever happened.
 */
async function runaway() {
  const run = spawnCli(['sql', RUNAWAY], env);
  started.push(run);
  let statement = 0;
  await waitUntil(
    () => {
      statement = childrenOf(run.child.pid!)[0] ?? run.child.pid!;
      return cpuSeconds(statement) >= 0.5;
    },
    15_000,
    'the statement to run',
  );
  return { run, statement };
}

const started: Spawned[] = [];
afterEach(() => {
  for (const run of started.splice(0)) run.child.kill('SIGKILL');
});

describe('mtg sql stuck in one step', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} ends it: exit 130, and the statement's process is gone`, async () => {
      const { run, statement } = await runaway();
      run.child.kill(signal);
      const { code } = await within(run.done, 10_000, 'mtg sql');
      expect(code).toBe(130);
      expect(run.stderr()).toBe('Interrupted.\n');
      // Well-formed, as an empty result prints it: tsv's header.
      expect(run.stdout()).toBe('count(*)\n');
      expect(running(statement)).toBe(false);
    }, 30_000);
  }

  it('killed outright (SIGKILL), it does not leave its statement running', async () => {
    const { run, statement } = await runaway();
    run.child.kill('SIGKILL');
    await run.done;
    await waitUntil(() => !running(statement), 10_000, "the statement's process to end");
  }, 30_000);
});
