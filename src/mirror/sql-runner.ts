// A user's SQL statement (`mtg sql`, `mtg mcp`'s sql tool) runs in a child process, apart from the
// caller's event loop, so that it can be stopped. One sqlite3_step of a runaway statement (a
// recursive CTE without end) never returns to JavaScript: a signal handler of the thread that runs
// it never runs, and neither node:sqlite nor better-sqlite3 exposes sqlite3_interrupt() or a
// progress handler. A worker thread does not help: measured on Node 20 (better-sqlite3), 22 and 24
// (node:sqlite), worker.terminate() never settles while the worker is inside a step, and
// process.exit() then hangs joining it. A child process can be SIGKILLed at any moment.
//
// The child opens the mirror read-only (its own connection: nothing the statement does outlives
// it), prepares the statement the caller already checked (sql.ts), and hands its rows over in
// batches, one batch when asked (so memory stays bounded however slowly the caller writes). The
// time limit counts the time the caller waits for its rows (the stepping), not the child's start nor
// the time the caller spends writing what it got. A watchdog thread in the child kills it when its parent is gone
// (SIGKILLed, crashed), so a runaway statement never outlives the command or the server.

import { type ChildProcess, spawn } from 'node:child_process';
import { ExitCode, InterruptedError, MtgError } from '../shared/errors.js';
import { driverSpecifier } from './driver.js';
import { CHILD } from './sql-child.js';

/** A statement that ran past its time limit; it was stopped. */
export class SqlTimeoutError extends MtgError {
  constructor(
    readonly limitMs: number,
    hint = '',
  ) {
    super(
      `the statement ran longer than its time limit of ${seconds(limitMs)}${hint} and was stopped`,
      ExitCode.api,
    );
  }
}

/** "30 s", "0.5 s". */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

export interface ApartOptions {
  /** The statement's time limit, in ms (the time spent waiting for its rows). */
  timeoutMs: number;
  /** Said after the limit in the timeout's message, e.g. " (--timeout)". */
  timeoutHint?: string;
  /** Aborted: the child is killed at once and the rows end in InterruptedError. */
  signal?: AbortSignal;
  /** An SQLite error the child reports, as the caller presents it (sql.ts: exit 2 with SQLite's message). */
  sqlError: (err: Error) => Error;
}

/** How long the child may take to start (node, the driver) and answer that it is ready. */
const START_BOUND_MS = 20_000;

type ChildMessage =
  | { type: 'ready' }
  | { type: 'rows'; rows: unknown[][]; done: boolean }
  | { type: 'error'; message: string; code?: string };

/** Says why a child that ended on its own ended, for the one-line error. */
function endedWhy(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  const line = stderr.trim().split('\n').pop()?.trim();
  return line || (signal ? `signal ${signal}` : `exit code ${code}`);
}

/** Only what SQLite may need from the environment (its temporary files); no NODE_OPTIONS hooks. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'SQLITE_TMPDIR', 'SYSTEMROOT']) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  return env;
}

/**
 * One child process: its messages one at a time, each awaited within a bound; an abort, the bound
 * or the child's end rejects the wait.
 */
class Runner {
  private readonly child: ChildProcess;
  private readonly queue: ChildMessage[] = [];
  private waiting: ((m: ChildMessage | Error) => void) | undefined;
  private ended: Error | undefined;
  readonly exited: Promise<void>;
  private stderr = '';
  /** A request sent and not answered yet: the child is busy (stepping, or starting). */
  pending = false;

  constructor() {
    // `-e` first: the standalone binary runs `mtg -e CODE ARGS...` as node would (src/cli/sea-main.ts).
    this.child = spawn(process.execPath, ['-e', CHILD, driverSpecifier()], {
      env: childEnv(),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      windowsHide: true,
    });
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      if (this.stderr.length < 4096) this.stderr += d;
    });
    this.child.on('message', (m: ChildMessage) => this.deliver(m));
    this.exited = new Promise((resolve) => {
      this.child.on('error', (err) => {
        this.end(
          new MtgError(`Cannot start the SQL runner (${process.execPath}): ${err.message}`, ExitCode.api),
        );
        resolve();
      });
      this.child.on('exit', (code, signal) => {
        this.end(
          new MtgError(
            `the statement's process ended before its last row (${endedWhy(code, signal, this.stderr)})`,
            ExitCode.api,
          ),
        );
        resolve();
      });
    });
  }

  get alive(): boolean {
    return this.ended === undefined;
  }

  private deliver(m: ChildMessage | Error): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting(m);
    else if (!(m instanceof Error)) this.queue.push(m);
  }

  private end(err: Error): void {
    this.ended ??= err;
    this.deliver(err);
  }

  send(message: object): void {
    this.pending = true;
    this.child.send(message, (err) => {
      // The child is gone: its exit says why.
      if (err) return;
    });
  }

  /** Idle in a pool: it does not keep this process's event loop alive. */
  park(parked: boolean): void {
    const channel = this.child.channel as { ref(): void; unref(): void } | undefined;
    if (parked) {
      this.child.unref();
      channel?.unref();
    } else {
      this.child.ref();
      channel?.ref();
    }
  }

  /** The next message, within `boundMs`; the time it took is returned with it. */
  async receive(
    boundMs: number,
    onBound: () => Error,
    signal: AbortSignal | undefined,
  ): Promise<{ message: ChildMessage; tookMs: number }> {
    const started = performance.now();
    const queued = this.queue.shift();
    if (queued) {
      this.pending = false;
      return { message: queued, tookMs: 0 };
    }
    if (this.ended) throw this.ended;
    if (signal?.aborted) throw new InterruptedError();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      const got = await new Promise<ChildMessage | Error>((resolve) => {
        this.waiting = resolve;
        timer = setTimeout(() => this.deliver(onBound()), Math.max(0, boundMs));
        onAbort = () => this.deliver(new InterruptedError());
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      if (got instanceof Error) throw got;
      this.pending = false;
      return { message: got, tookMs: performance.now() - started };
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Ends the child (SIGKILL unless it has ended) and waits for it, briefly. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 2_000).unref())]);
  }
}

/**
 * Statement processes a long-lived caller (`mtg mcp`) reuses: at most `max` at once (each is a node
 * process: tens of MB), an idle one kept for the next statement (a process start costs more than
 * most statements) and ended after `idleMs`. A statement that was stopped mid-step takes its
 * process with it; close() ends them all.
 */
export class StatementPool {
  private readonly idle: Runner[] = [];
  private readonly idleTimers = new Map<Runner, NodeJS.Timeout>();
  private running = 0;
  private wakers: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly max = 4,
    private readonly idleMs = 15_000,
  ) {}

  /** A process for one statement: an idle one, a new one, or the next one freed (within `boundMs`). */
  async acquire(boundMs: number, onBound: () => Error, signal: AbortSignal | undefined): Promise<Runner> {
    const end = performance.now() + boundMs;
    for (;;) {
      if (this.closed || signal?.aborted) throw new InterruptedError();
      const parked = this.idle.pop();
      if (parked) {
        clearTimeout(this.idleTimers.get(parked));
        this.idleTimers.delete(parked);
        if (!parked.alive) continue;
        parked.park(false);
        return parked;
      }
      if (this.running < this.max) {
        const runner = new Runner();
        this.running++;
        void runner.exited.then(() => {
          this.running--;
          const at = this.idle.indexOf(runner);
          if (at >= 0) this.idle.splice(at, 1);
          this.wake();
        });
        return runner;
      }
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => finish(onBound()), Math.max(0, end - performance.now()));
        const onAbort = () => finish(new InterruptedError());
        const finish = (err?: Error) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.wakers = this.wakers.filter((w) => w !== waker);
          if (err) reject(err);
          else resolve();
        };
        const waker = () => finish();
        this.wakers.push(waker);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
  }

  /** A process whose statement ended between batches: kept for the next one. */
  release(runner: Runner): void {
    if (this.closed || !runner.alive || runner.pending) {
      void runner.stop();
      return;
    }
    runner.park(true);
    this.idle.push(runner);
    const timer = setTimeout(() => {
      this.idleTimers.delete(runner);
      void runner.stop();
    }, this.idleMs);
    timer.unref();
    this.idleTimers.set(runner, timer);
    this.wake();
  }

  private wake(): void {
    this.wakers[0]?.();
  }

  /** Ends every idle process now; a statement still running is ended by its caller's signal. */
  close(): void {
    this.closed = true;
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    for (const runner of this.idle.splice(0)) void runner.stop();
    for (const waker of [...this.wakers]) waker();
  }
}

/**
 * The rows of `sql` (already checked: one read-only statement that returns rows) on the mirror at
 * `path`, each as an array of cells in `columns`' order, run in a child process (see the top of
 * this file; from `options.pool` when given, else one of its own). Lazy: the process is taken at the
 * first next(); stopping the iteration (`break`, return()) ends the statement. Past the time limit
 * (a wait for a pool's process included): SqlTimeoutError; aborted: InterruptedError; an SQLite
 * error while stepping: options.sqlError(…).
 */
export async function* rowsApart(
  path: string,
  sql: string,
  options: ApartOptions & { busyMs?: number; pool?: StatementPool },
): AsyncGenerator<unknown[]> {
  const { signal, pool } = options;
  const timedOut = () => new SqlTimeoutError(options.timeoutMs, options.timeoutHint);
  const asked = performance.now();
  const runner = pool ? await pool.acquire(options.timeoutMs, timedOut, signal) : new Runner();
  let left = options.timeoutMs - (performance.now() - asked);
  const answer = async (boundMs: number, onBound: () => Error, counts: boolean) => {
    const { message, tookMs } = await runner.receive(boundMs, onBound, signal);
    if (counts) left -= tookMs;
    if (message.type === 'error') {
      throw options.sqlError(Object.assign(new Error(message.message), { code: message.code }));
    }
    return message;
  };
  try {
    runner.send({ type: 'run', path, sql, busyMs: options.busyMs ?? 5000 });
    // Starting node and the driver, opening and preparing (already done once by the caller) are not
    // the statement's time: a loaded machine may take a while to start a process.
    await answer(
      START_BOUND_MS,
      () => new MtgError(`the SQL runner did not start within ${seconds(START_BOUND_MS)}`, ExitCode.api),
      false,
    );
    for (;;) {
      runner.send({ type: 'next' });
      const batch = await answer(left, timedOut, true);
      if (batch.type !== 'rows') continue;
      yield* batch.rows;
      if (batch.done) return;
    }
  } finally {
    // Between batches (done, or the reader stopped) the process is idle: a pool keeps it. Mid-step
    // (the limit, an abort, an error) it is killed.
    if (pool) pool.release(runner);
    else await runner.stop();
  }
}
