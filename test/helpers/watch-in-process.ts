// `mtg watch` run in this process on a virtual clock, as test/commands/watch/ drives it: started,
// looked at every 500 ms of the clock until a condition holds, and interrupted.
import { type TestIO, testIO } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import type { VirtualClock } from './virtual-clock.js';

export interface WatchInProcess {
  io: TestIO;
  /**
   * Runs the clock, looking every 500 ms of it, until `check` holds; fails (with the watch's stderr)
   * after `maxMs` of the clock or when the watch ended first.
   */
  until(what: string, check: () => boolean, maxMs?: number): Promise<void>;
  /** Interrupts the watch (SIGTERM) and returns its exit code. */
  stop(): Promise<number>;
  /** Whether the watch's run() has returned. */
  ended(): boolean;
}

export function watchInProcess(
  args: string[],
  env: Record<string, string>,
  clock: VirtualClock,
): WatchInProcess {
  const io = testIO();
  const interrupt = new AbortController();
  const watching = run(['watch', ...args], io, env, { clock, interrupt: interrupt.signal });
  let ended = false;
  void watching.finally(() => {
    ended = true;
  });
  return {
    io,
    ended: () => ended,
    until: (what, check, maxMs = 3_600_000) =>
      clock
        .settle(
          (async () => {
            while (!check()) {
              if (ended) throw new Error(`the watch ended before ${what}`);
              await clock.sleep(500);
            }
          })(),
          { maxMs },
        )
        .catch((err: Error) =>
          Promise.reject(new Error(`${err.message}; the watch's stderr:\n${io.stderr()}`)),
        ),
    stop: () => {
      interrupt.abort('SIGTERM');
      return clock.settle(watching);
    },
  };
}
