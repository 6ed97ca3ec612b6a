// Shared bits of the hardening tests: spawning the built CLI with control over signals, reading
// ids out of each format, and a sandbox that records how many requests a step made.
// The one spawn helper lives in test/helpers/cli.ts; spawnCli stays importable from here.
export { type Spawned, spawnCli } from '../helpers/cli.js';

/** Polls `check` every 20 ms until it is true (or throws after `timeoutMs`). */
export async function waitUntil(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function ndjsonIds(text: string): number[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id);
}

/** Every id appears exactly once and the set equals `expected`. */
export function sameIdsOnce(actual: number[], expected: number[]): boolean {
  return (
    actual.length === expected.length &&
    new Set(actual).size === actual.length &&
    [...actual].sort((a, b) => a - b).join() === [...expected].sort((a, b) => a - b).join()
  );
}

export const EXPORT_ARGS = ['action-items', 'list', '--assignee', 'anyone', '--status', 'all'];
