// Runs mtg in this process through run(argv, io, env) (src/cli/main.ts) with in-memory streams:
// no build, no child process. The end-to-end suite (test/helpers/cli.ts) still runs the built binary.
import { testIO } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import type { Clock } from '../../src/shared/clock.js';
import { tempConfigDir } from './cli.js';

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  /** What stdin holds; none: empty (or, with `tty`, a terminal nobody types into). */
  stdin?: string;
  /** stdout, stderr and stdin are terminals (default: pipes). */
  tty?: boolean;
  /** Terminal width with `tty` (default 100). */
  columns?: number;
  /** The clock relative dates count from. */
  now?: Date;
  /** What the command waits and measures with (the Context's clock); e.g. a VirtualClock (virtual-clock.ts). */
  clock?: Clock;
}

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runInProcess(argv: string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  const io = testIO({ stdin: options.stdin, tty: options.tty, columns: options.columns, now: options.now });
  // Like runCli: a fresh config folder, and no color setting of the developer's shell.
  const env = { MTG_CONFIG_DIR: tempConfigDir(), ...options.env };
  const code = await run(argv, io, env, { clock: options.clock });
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}
