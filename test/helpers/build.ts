// vitest globalSetup of the end-to-end project (vitest.config.ts): those tests start the built
// binary (bin/mtg.js -> dist/), so the run builds it first, unless dist/ is newer than everything
// the build reads. Rebuilding in place on every run rewrote dist/ under the processes that another
// run in the same checkout had started (files missing or half-written for them): now an up-to-date
// dist/ is left alone, and a build goes to a folder of its own that then takes dist/'s place.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
/** What scripts/build.mjs reads besides node_modules (package-lock.json stands for those). */
const INPUTS = ['src', 'scripts/build.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];

/** Every file under `path` (or `path` itself), with its mtime in ms. */
function mtimes(path: string): number[] {
  if (!existsSync(path)) return [];
  const stat = statSync(path);
  if (!stat.isDirectory()) return [stat.mtimeMs];
  return readdirSync(path).flatMap((name) => mtimes(join(path, name)));
}

/** dist/ holds a whole build (its start-up file and help texts) made after the last change of any input. */
export function distIsCurrent(root = ROOT): boolean {
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'mtg.cjs')) || !existsSync(join(dist, 'help.json'))) return false;
  const built = Math.min(...mtimes(dist));
  const changed = Math.max(...INPUTS.flatMap((p) => mtimes(join(root, p))));
  return changed < built;
}

export default function build(): void {
  // With MTG_TEST_BIN the tests start that binary, not dist/ (scripts/binary-check.sh): nothing to
  // build, and nothing swapped under a build that runs beside them (CI's bench step).
  if (process.env.MTG_TEST_BIN || distIsCurrent()) return;
  const fresh = join(ROOT, `dist.build-${process.pid}`);
  const old = join(ROOT, `dist.old-${process.pid}`);
  try {
    execFileSync(process.execPath, ['scripts/build.mjs'], {
      cwd: ROOT,
      env: { ...process.env, MTG_BUILD_OUTDIR: fresh },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // A folder cannot be renamed over a non-empty one: dist/ steps aside first (for a moment there
    // is none, where a rewrite in place left a mix of two builds for the whole build).
    if (existsSync(join(ROOT, 'dist'))) renameSync(join(ROOT, 'dist'), old);
    renameSync(fresh, join(ROOT, 'dist'));
  } finally {
    rmSync(fresh, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}
