// Shared bits of the hardening tests: spawning the built CLI with control over signals (test/e2e),
// an in-process run with a bound, and reading ids out of each format.
import { type ChildProcess, spawn } from 'node:child_process';
import { BIN, baseEnv, tempConfigDir } from '../helpers/cli.js';
import { type InProcessOptions, type InProcessResult, runInProcess } from '../helpers/inprocess.js';

export interface Spawned {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Like runCli, but hands back the child so a test can signal it mid-run. */
export function spawnCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  cwd?: string,
): Spawned {
  const full: Record<string, string | undefined> = {
    ...baseEnv(),
    MTG_CONFIG_DIR: tempConfigDir(),
    ...env,
  };
  for (const key of Object.keys(full)) if (full[key] === undefined) delete full[key];
  const child = spawn(process.execPath, [BIN, ...args], {
    env: full as NodeJS.ProcessEnv,
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, stdout: () => out, stderr: () => err, done };
}

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
