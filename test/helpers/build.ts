// vitest globalSetup of the end-to-end project (vitest.config.ts): those tests start the built
// binary (bin/mtg.js -> dist/), so the run builds it once first. The in-process project does not
// need it, and vitest runs this only when the run holds end-to-end files.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function build(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], {
    cwd: join(import.meta.dirname, '..', '..'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
