// Shared bits of the hardening tests: an in-process run with a bound, and reading ids out of each
// format. The one spawn helper lives in test/helpers/cli.ts; spawnCli stays importable from here.
import { type InProcessOptions, type InProcessResult, runInProcess } from '../helpers/inprocess.js';

export { type Spawned, spawnCli } from '../helpers/cli.js';

/**
 * runInProcess, bounded: a run still going after `ms` comes back with `finished: false` (a spawned
 * run was killed then), so a test of "bounded, never a hang" fails instead of waiting for good.
 */
export async function runBounded(
  argv: string[],
  options: InProcessOptions,
  ms: number,
): Promise<InProcessResult & { finished: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<InProcessResult & { finished: boolean }>((resolve) => {
    timer = setTimeout(() => resolve({ code: -1, stdout: '', stderr: '', finished: false }), ms);
  });
  try {
    return await Promise.race([runInProcess(argv, options).then((r) => ({ ...r, finished: true })), bound]);
  } finally {
    clearTimeout(timer);
  }
}

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
