// Runs the built CLI (bin/mtg.js -> dist/) as a child process, as users and scripts do.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from './temp.js';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mtg.js');

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

/** A fresh, empty config folder so tests never read the developer's own settings. */
export function tempConfigDir(): string {
  return tempDir('mtg-test-config-');
}

/** What every spawned mtg inherits: the run's temp folder (test/helpers/temp-root.ts) included. */
export function baseEnv(): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };
}

export function runCli(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const env: Record<string, string | undefined> = {
    ...baseEnv(),
    MTG_CONFIG_DIR: options.env?.MTG_CONFIG_DIR ?? tempConfigDir(),
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
    ...options.env,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.bin ?? BIN, ...args], {
      env: env as NodeJS.ProcessEnv,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Environment pointing the CLI at a sandbox. */
export function sandboxEnv(sandbox: { baseUrl: string; apiKey: string }, extra: Record<string, string> = {}) {
  return { MTG_BASE_URL: sandbox.baseUrl, MTG_API_KEY: sandbox.apiKey, ...extra };
}
