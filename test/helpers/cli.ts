// Runs the built CLI (bin/mtg.js -> dist/) as a child process, as users and scripts do. The one
// spawn helper: runCli waits for the end, spawnCli hands back the child (to signal it mid-run),
// and both (and the terminal helper) take their environment from cliEnv().

import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from './temp.js';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mtg.js');

/**
 * The command that runs mtg: node and bin/mtg.js, or MTG_TEST_BIN, a standalone binary
 * (`npm run build:binary`; CI runs the e2e tests with it), run directly.
 */
export function mtgCommand(args: string[]): { command: string; args: string[] } {
  const binary = process.env.MTG_TEST_BIN;
  return binary ? { command: binary, args } : { command: process.execPath, args: [BIN, ...args] };
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  cwd?: string;
  /** Another install's bin/mtg.js (default: this checkout's). */
  bin?: string;
}

export interface Spawned {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A fresh, empty config folder so tests never read the developer's own settings. */
export function tempConfigDir(): string {
  return tempDir('mtg-test-config-');
}

/**
 * What every spawned mtg inherits: the run's temp folder (test/helpers/temp-root.ts) included, and
 * a cache and a data folder in it (XDG_CACHE_HOME, where mtg keeps node's compile cache on Linux:
 * src/cli/entry.ts; XDG_DATA_HOME, the data folder of a test that names none, where mtg processes
 * share their rate-limit logs: src/api/ratelimit-file.ts), so that test runs leave nothing in the
 * developer's ~/.cache or ~/.local/share, and never pace beside the developer's own mtg.
 */
export function baseEnv(): Record<string, string | undefined> {
  const run = process.env.MTG_TEST_RUN_ROOT;
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    XDG_CACHE_HOME: run ? join(run, 'cache') : process.env.XDG_CACHE_HOME,
    XDG_DATA_HOME: run ? join(run, 'data') : process.env.XDG_DATA_HOME,
  };
}

/**
 * The whole environment of a spawned mtg: baseEnv(), a fresh config folder, then `env` on top;
 * a variable set to undefined is left out (nothing of the developer's shell leaks in).
 */
export function cliEnv(env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const full: Record<string, string | undefined> = {
    ...baseEnv(),
    MTG_CONFIG_DIR: env.MTG_CONFIG_DIR ?? tempConfigDir(),
    ...env,
  };
  for (const key of Object.keys(full)) if (full[key] === undefined) delete full[key];
  return full as NodeJS.ProcessEnv;
}

function start(
  args: string[],
  options: { env?: Record<string, string | undefined>; cwd?: string; bin?: string; stdin: 'pipe' | 'ignore' },
): Spawned {
  const mtg = options.bin ? { command: process.execPath, args: [options.bin, ...args] } : mtgCommand(args);
  const child = spawn(mtg.command, mtg.args, {
    env: cliEnv(options.env),
    cwd: options.cwd,
    stdio: [options.stdin, 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, stdout: () => out, stderr: () => err, done };
}

/** Like runCli, but hands back the child so a test can signal it mid-run (stdin: none). */
export function spawnCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  cwd?: string,
): Spawned {
  return start(args, { env, cwd, stdin: 'ignore' });
}

/** Runs the built CLI to its end (killed after `timeoutMs`), `input` on its stdin. */
export async function runCli(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const run = start(args, { env: options.env, cwd: options.cwd, bin: options.bin, stdin: 'pipe' });
  const timer = setTimeout(() => run.child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  // A run that exits without reading its stdin (help, a usage error) closes the pipe first: the
  // EPIPE of this write is not the test's failure (it was an uncaught error that failed whole runs).
  run.child.stdin!.on('error', () => undefined);
  run.child.stdin!.end(options.input ?? '');
  try {
    const { code, signal } = await run.done;
    return { code, signal, stdout: run.stdout(), stderr: run.stderr() };
  } finally {
    clearTimeout(timer);
  }
}

/** Environment pointing the CLI at a sandbox. */
export function sandboxEnv(sandbox: { baseUrl: string; apiKey: string }, extra: Record<string, string> = {}) {
  return { MTG_BASE_URL: sandbox.baseUrl, MTG_API_KEY: sandbox.apiKey, ...extra };
}
