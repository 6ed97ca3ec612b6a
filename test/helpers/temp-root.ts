// vitest globalSetup: the whole run gets its own temp folder, and a run that leaves anything in it
// fails. TMPDIR is set before the workers start, so os.tmpdir() in every test file, and in every
// process a helper spawns (they pass TMPDIR on), points inside it; other programs' files in the
// machine's /tmp cannot hide a leak, and a leak cannot pile up there.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // Both projects of vitest.config.ts list this setup: the run makes one folder, not one inside the other.
  if (process.env.MTG_TEST_RUN_ROOT) return () => undefined;
  const root = mkdtempSync(join(tmpdir(), 'mtg-testrun-'));
  process.env.TMPDIR = root;
  process.env.MTG_TEST_RUN_ROOT = root;
  return () => {
    delete process.env.MTG_TEST_RUN_ROOT;
    // Caches by design, shared by the run's processes, not files a test forgot: mtg's (node's
    // compile cache, under XDG_CACHE_HOME: test/helpers/cli.ts baseEnv), node's default compile
    // cache in the temp dir, which tools run by tests (tsc, vite) turn on, and the data folder of
    // the spawned mtg that name none (XDG_DATA_HOME: the rate-limit logs processes share).
    const shared = new Set(['cache', 'node-compile-cache', 'data']);
    const left = readdirSync(root).filter((name) => !shared.has(name));
    rmSync(root, { recursive: true, force: true });
    if (left.length === 0) return;
    // A throw here is only logged by vitest 4 ("error during close") and the run still exits 0:
    // the exit code is what makes CI fail.
    process.exitCode = 1;
    const shown = left.slice(0, 20).join(', ') + (left.length > 20 ? `, … (${left.length} in all)` : '');
    process.stderr.write(`\nThe tests left ${left.length} item(s) in their temp folder: ${shown}\n`);
  };
}
