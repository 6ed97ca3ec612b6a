// A Clock (src/shared/clock.ts) whose time moves only when a test says so: advance(ms) runs the
// timers that fall due, in order, letting promise chains settle between them; settle(promise) jumps
// from timer to timer whenever nothing else is pending, until the promise settles. Pacing, windows,
// ETAs and intervals then take milliseconds of real time, whatever they take on the clock.
// With `realIo`, the code under test may also do real I/O (mtg's client against a sandbox over
// loopback HTTP, the mirror's files): the clock then never jumps while a request is in flight or a
// file system request is pending, so time passes only while the process waits on the clock alone.
import { subscribe } from 'node:diagnostics_channel';
import type { Clock } from '../../src/shared/clock.js';

interface Timer {
  at: number;
  /** Creation order: timers due at the same moment run in the order they were set. */
  seq: number;
  fn: () => void;
}

export interface SettleOptions {
  /** Fail when the clock would pass this many ms from where settle() began (default: one day). */
  maxMs?: number;
  /** Fail after this many timers have run (default 100,000): a loop that never ends fails, not hangs. */
  maxTimers?: number;
}

/** Lets every queued microtask, and what it queues in turn, run: one turn of the event loop. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export interface VirtualClockOptions {
  /** The code under test does real I/O too: wait for it before each jump (see above). */
  realIo?: boolean;
  /** With realIo: fail when real I/O keeps the clock from moving this long, in real ms (default 30 s). */
  realIoBoundMs?: number;
}

// HTTP requests in flight in this process, as undici reports them (every copy of undici, and
// fetch, publishes on these channels by name): from creation to the whole answer or a failure.
const inFlight = new Set<object>();
let listening = false;
function listenToHttp(): void {
  if (listening) return;
  listening = true;
  subscribe('undici:request:create', (m) => inFlight.add((m as { request: object }).request));
  const done = (m: unknown) => inFlight.delete((m as { request: object }).request);
  subscribe('undici:request:trailers', done);
  subscribe('undici:request:error', done);
}

/** A file system request (fs/promises or a callback) not answered yet. */
function fileSystemBusy(): boolean {
  return process.getActiveResourcesInfo().some((name) => name.startsWith('FSReq'));
}

const realPause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class VirtualClock implements Clock {
  private time: number;
  private seq = 0;
  private timers: Timer[] = [];
  private readonly realIo: boolean;
  private readonly realIoBoundMs: number;

  constructor(start = Date.parse('2026-01-01T00:00:00Z'), options: VirtualClockOptions = {}) {
    this.time = start;
    this.realIo = options.realIo ?? false;
    this.realIoBoundMs = options.realIoBoundMs ?? 30_000;
    if (this.realIo) listenToHttp();
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const cancel = this.timeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        cancel();
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  timeout(fn: () => void, ms: number): () => void {
    const timer: Timer = { at: this.time + Math.max(0, ms), seq: ++this.seq, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Timers set and not yet run or cancelled. */
  get pending(): number {
    return this.timers.length;
  }

  /** When the next timer is due, if any. */
  nextAt(): number | undefined {
    return this.next()?.at;
  }

  /** Moves the clock `ms` on, running each timer due on the way at its own moment. */
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    await this.quiet();
    for (let timer = this.next(); timer && timer.at <= until; timer = this.next()) {
      this.run(timer);
      await this.quiet();
    }
    this.time = until;
    await this.quiet();
  }

  /**
   * Runs the clock until `promise` settles: whenever a turn of the event loop leaves it unsettled,
   * the clock jumps to the next timer. Only for code whose work is all on this clock and in
   * promises (no real I/O it must wait for): a jump would otherwise outrun that I/O.
   */
  async settle<T>(promise: Promise<T>, options: SettleOptions = {}): Promise<T> {
    const maxMs = options.maxMs ?? 86_400_000;
    const maxTimers = options.maxTimers ?? 100_000;
    const from = this.time;
    let done = false;
    const watched = promise.finally(() => {
      done = true;
    });
    // The caller sees the rejection through the returned promise; this copy must not be unhandled.
    watched.catch(() => undefined);
    for (let ran = 0; ; ran++) {
      await this.quiet();
      if (done) return watched;
      const timer = this.next();
      if (!timer && this.realIo) {
        // Nothing on the clock: something real (a socket's answer, a real timer) is to come.
        await this.waitForReal(() => done || this.next() !== undefined);
        ran--;
        continue;
      }
      if (!timer) throw new Error('VirtualClock.settle: nothing pending and the promise never settled');
      if (ran >= maxTimers) throw new Error(`VirtualClock.settle: still unsettled after ${maxTimers} timers`);
      if (timer.at - from > maxMs) throw new Error(`VirtualClock.settle: still unsettled after ${maxMs} ms`);
      this.run(timer);
    }
  }

  /**
   * One turn of the event loop; with realIo, then as long as real I/O is in flight, until two more
   * turns (for what its end queues) have started none: a request started in those turns has set
   * its deadline on this clock already, and a jump now would run it.
   */
  private async quiet(): Promise<void> {
    await flush();
    if (!this.realIo) return;
    const idle = () => inFlight.size === 0 && !fileSystemBusy();
    const deadline = Date.now() + this.realIoBoundMs;
    do {
      await this.waitForReal(idle, deadline);
      await flush();
      await flush();
    } while (!idle());
  }

  /** Waits in real time, a millisecond at a time, until `ready`; bounded by realIoBoundMs. */
  private async waitForReal(ready: () => boolean, deadline = Date.now() + this.realIoBoundMs): Promise<void> {
    while (!ready()) {
      if (Date.now() > deadline)
        throw new Error(`VirtualClock: real I/O kept the clock from moving for ${this.realIoBoundMs} ms`);
      await realPause(1);
    }
  }

  private next(): Timer | undefined {
    let first: Timer | undefined;
    for (const t of this.timers)
      if (!first || t.at < first.at || (t.at === first.at && t.seq < first.seq)) first = t;
    return first;
  }

  private run(timer: Timer): void {
    this.timers = this.timers.filter((t) => t !== timer);
    this.time = Math.max(this.time, timer.at);
    timer.fn();
  }
}
