// The end-to-end project builds dist/ only when it is older than what the build reads
// (test/helpers/build.ts), so that a run does not rewrite dist/ under another run's processes.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { distIsCurrent } from '../helpers/build.js';
import { tempDir } from '../helpers/temp.js';

/** A checkout with one source file and a build, each given its mtime (seconds since the epoch). */
function checkout(times: { source: number; build: number; script?: number }): string {
  const root = tempDir();
  const put = (path: string, at: number) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), 'x');
    utimesSync(join(root, path), at, at);
  };
  put('src/cli/main.ts', times.source);
  put('scripts/build.mjs', times.script ?? times.source);
  put('package.json', times.source);
  for (const out of ['dist/mtg.cjs', 'dist/cli.cjs', 'dist/help.json', 'dist/chunks/a.cjs'])
    put(out, times.build);
  return root;
}

describe('the e2e build step', () => {
  it('leaves a dist/ built after every input alone', () => {
    expect(distIsCurrent(checkout({ source: 1000, build: 2000 }))).toBe(true);
  });

  it('builds when a source file, or the build script, changed since', () => {
    expect(distIsCurrent(checkout({ source: 3000, build: 2000 }))).toBe(false);
    expect(distIsCurrent(checkout({ source: 1000, script: 3000, build: 2000 }))).toBe(false);
  });

  it('builds when dist/ is missing or incomplete', () => {
    const root = tempDir();
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'a.ts'), 'x');
    expect(distIsCurrent(root)).toBe(false);
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'mtg.cjs'), 'x');
    expect(distIsCurrent(root)).toBe(false);
  });
});
