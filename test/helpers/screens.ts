// What people read, for the file snapshots beside the command tests: mtg in-process against a
// sandbox of a fixed seed, the clock fixed (io.now), the time zone pinned and the width fixed, so a
// change to a table, a page, a help text or an error shows up as a diff of a snapshot file.
import { afterAll, beforeAll } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from './cli.js';
import { type InProcessResult, runInProcess } from './inprocess.js';

// Dates without a relative form are printed in local time: pin it before any is formatted.
process.env.TZ = 'UTC';

/** Days after the sandbox's records: dates print relative to it. */
export const NOW = new Date('2025-06-04T12:00:00Z');

export interface Screens {
  sandbox: Sandbox;
  /** Points mtg at the sandbox, colors off. */
  env: Record<string, string | undefined>;
  /** On a terminal of `columns` (default 100), colors off, the clock at NOW. */
  onTerminal(argv: string[], columns?: number): Promise<InProcessResult>;
}

/** Starts the sandbox (seed 7, no limits) before the file's tests and stops it after them. */
export function useScreens(): Screens {
  const screens = {
    env: {},
    onTerminal: (argv: string[], columns = 100) =>
      runInProcess(argv, { env: screens.env, tty: true, columns, now: NOW }),
  } as Screens;
  beforeAll(async () => {
    screens.sandbox = await startSandbox({ port: 0, limits: 'none', seed: 7 });
    screens.env = sandboxEnv(screens.sandbox, { NO_COLOR: '1' });
  });
  afterAll(async () => {
    await screens.sandbox?.close();
  });
  return screens;
}
