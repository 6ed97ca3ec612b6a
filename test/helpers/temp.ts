// Temp folders for tests: tempDir() makes one and test/helpers/cleanup.ts removes it after the
// test file (vitest setupFiles), so helpers and tests need no rm of their own for these.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

export function tempDir(prefix = 'mtg-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
