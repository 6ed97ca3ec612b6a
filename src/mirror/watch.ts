// The engine of `mtg watch`: sync, then hand each new change event over exactly once, in seq order,
// then wait for the next interval; the command (src/commands/watch.ts) supplies the sync, the output
// and the hook. Exactly once across restarts comes from the mirror: the last handled seq is stored
// in `meta` under `watch_seq:<consumer>` right after each event is handled, and a restarted watch
// reads the change log after it.

import { type Clock, realClock } from '../shared/clock.js';
import { ExitCode, InterruptedError, MtgError, UsageError } from '../shared/errors.js';
import { type ChangeEvent, type ChangeResource, lastSeq, readChanges } from './changes.js';
import type { Db } from './driver.js';
import type { Mirror } from './open.js';
import type { SyncSummary } from './sync.js';

/** `4m 05s`, `1h 02m`, `12s`: for status lines. */
export function shortDuration(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s}s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m ${pad(s % 60)}s`;
  return `${Math.floor(s / 3600)}h ${pad(Math.floor((s % 3600) / 60))}m`;
}

export function checkConsumer(name: string): string {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
    throw new UsageError(
      `Invalid --consumer "${name}": use 1 to 64 letters, digits, dots, dashes or underscores`,
    );
  }
  return name;
}

const cursorKey = (consumer: string) => `watch_seq:${consumer}`;

/** The last seq this consumer handled, if it ever ran. */
export function readCursor(mirror: Mirror, consumer: string): number | undefined {
  const v = mirror.meta(cursorKey(consumer));
  return v === undefined ? undefined : Number(v);
}

export function writeCursor(mirror: Mirror, consumer: string, seq: number): void {
  mirror.setMeta(cursorKey(consumer), String(seq));
}

export function hasCompleteSync(db: Db): boolean {
  return db.prepare<{ n: number }>('SELECT count(*) AS n FROM runs WHERE complete = 1').get()!.n > 0;
}

/** HTTP requests the syncs of this mirror (the watch's and any other) sent in the last hour. */
export function requestsInLastHour(db: Db, now = Date.now()): number {
  const since = new Date(now - 3_600_000).toISOString();
  return (
    db.prepare<{ n: number | null }>('SELECT sum(requests) AS n FROM runs WHERE started_at >= ?').get(since)
      ?.n ?? 0
  );
}

/** Whether the action item is one of "mine" (the default-assignee walk returned it). */
export function isMine(db: Db, id: string): boolean {
  return (
    (db.prepare<{ mine: number }>('SELECT mine FROM action_items WHERE id = ?').get(id)?.mine ?? 0) === 1
  );
}

/**
 * The interval to use: the one asked for, or, when the last sync needed more requests than the
 * sustainable rate allows in that time, the time those requests take at that rate (rounded up to
 * a second). Syncs never overlap either way; this keeps a watch from running syncs back to back.
 */
export function effectiveInterval(askedMs: number, lastRequests: number, rate: number | undefined): number {
  if (rate === undefined || rate <= 0 || lastRequests <= 0) return askedMs;
  return Math.max(askedMs, Math.ceil(lastRequests / rate) * 1000);
}

/** A sleep on `clock` that ends early (with InterruptedError) when the signal aborts. */
export async function sleep(ms: number, signal: AbortSignal, clock: Clock = realClock): Promise<void> {
  if (signal.aborted) throw new InterruptedError();
  await clock.sleep(ms, signal);
  if (signal.aborted) throw new InterruptedError();
}

/** Failures that end the watch: bad input, a rejected key, Ctrl-C, and bugs (not MtgError). */
export function isFatal(err: unknown): boolean {
  if (err instanceof InterruptedError) return true;
  if (!(err instanceof MtgError)) return true;
  return err.exitCode === ExitCode.usage || err.exitCode === ExitCode.auth;
}

export interface WatchOptions {
  intervalMs: number;
  consumer: string;
  /** Only these resources are handed over (the others are passed by). Empty: all. */
  resources: readonly ChangeResource[];
  fromStart: boolean;
}

export interface WatchHooks {
  /** One sync run (throws on failure); calls `committed` when it has committed a page or transcript. */
  sync(committed: () => void): Promise<SyncSummary>;
  /**
   * Print one event; resolves when the line has left the process (the stream's write callback:
   * node writes to a pipe asynchronously, so a returned write() may still sit in its buffer).
   */
  print(event: ChangeEvent): Promise<void>;
  /** Then run --exec for it, if any; the event counts as handled when this resolves. */
  exec?(event: ChangeEvent): Promise<void>;
  /** A failed sync, an info line. */
  report(line: string): void;
  /** A warning printed once. */
  warn(line: string): void;
  /** Between syncs: called about every second with the time left. */
  waiting(msLeft: number, intervalMs: number): void;
  /** The sustainable request rate per second, when known (the client's limiter). */
  rateLimit?(): number | undefined;
  signal: AbortSignal;
  /** Time and the waits between syncs (the Context's clock; tests drive a virtual one). */
  clock?: Clock;
  /** Stop after this many syncs (`--once`: 1); the last one's failure is then thrown. Default: never. */
  maxSyncs?: number;
}

const BATCH = 200;

/** Runs until interrupted or a fatal error (which it throws). */
export async function watch(mirror: Mirror, options: WatchOptions, hooks: WatchHooks): Promise<void> {
  const clock = hooks.clock ?? realClock;
  const now = () => clock.now();
  const db = mirror.db;
  const wanted = new Set<ChangeResource>(options.resources);
  let cursor: number | undefined = options.fromStart ? 0 : readCursor(mirror, options.consumer);
  if (cursor === undefined && hasCompleteSync(db)) cursor = lastSeq(db);
  if (cursor !== undefined) writeCursor(mirror, options.consumer, cursor);
  let warned = false;
  let interval = options.intervalMs;
  for (let syncs = 0; hooks.maxSyncs === undefined || syncs < hooks.maxSyncs; syncs++) {
    if (hooks.signal.aborted) throw new InterruptedError();
    const started = now();
    let summary: SyncSummary | undefined;
    let failure: unknown;
    // Events are handed over while the sync goes on ("as soon as it is known"): each commit kicks
    // a drain; drains run one after another, never two at once.
    // A drain hands over only what was committed when `committed` was last called: the sync says
    // when its events are final (an action item's `mine` is known after the default-assignee walk),
    // and a drain still running hooks must not run ahead into pages committed meanwhile.
    let pump: Promise<void> = Promise.resolve();
    let pumpError: unknown;
    let kicked = false;
    let upTo = 0;
    const committed = () => {
      if (cursor === undefined || pumpError !== undefined) return;
      upTo = lastSeq(db);
      if (kicked) return;
      kicked = true;
      pump = pump.then(async () => {
        kicked = false;
        try {
          cursor = await drain(mirror, cursor!, wanted, options.consumer, hooks, () => upTo);
        } catch (err) {
          pumpError ??= err;
        }
      });
    };
    try {
      summary = await hooks.sync(committed);
    } catch (err) {
      await pump;
      if (isFatal(err) || hooks.signal.aborted) throw hooks.signal.aborted ? new InterruptedError() : err;
      failure = err;
      if (hooks.maxSyncs === undefined || syncs + 1 < hooks.maxSyncs)
        hooks.report(
          `Sync failed: ${err instanceof Error ? err.message : String(err)}; retrying in ${shortDuration(interval)}`,
        );
    }
    await pump;
    if (pumpError !== undefined) throw pumpError;
    if (cursor === undefined) {
      // A mirror that never completed a sync: its first copy is where the watch starts, not news.
      if (summary?.complete) {
        cursor = lastSeq(db);
        writeCursor(mirror, options.consumer, cursor);
        hooks.report(`Mirror ready: changes after seq ${cursor} will be handed over`);
      }
    } else {
      cursor = await drain(mirror, cursor, wanted, options.consumer, hooks);
    }
    if (summary) {
      const next = effectiveInterval(options.intervalMs, summary.requests, hooks.rateLimit?.());
      if (next > options.intervalMs && !warned) {
        warned = true;
        hooks.warn(
          `A sync needs ${summary.requests} requests: at the rate limit's sustainable pace that takes ${shortDuration(next)}, so syncs run every ${shortDuration(next)} instead of every ${shortDuration(options.intervalMs)}`,
        );
      }
      interval = next;
    }
    if (hooks.maxSyncs !== undefined && syncs + 1 >= hooks.maxSyncs) {
      if (failure !== undefined) throw failure;
      break;
    }
    await waitUntil(started + interval, interval, hooks, clock);
  }
}

async function drain(
  mirror: Mirror,
  from: number,
  wanted: ReadonlySet<ChangeResource>,
  consumer: string,
  hooks: WatchHooks,
  upTo: () => number = () => Number.MAX_SAFE_INTEGER,
): Promise<number> {
  let cursor = from;
  for (;;) {
    // Read a batch, then handle it: the database is written (the cursor) while handling, which an
    // open iterator on the same connection does not allow.
    const batch = [...readChanges(mirror.db, { after: cursor, upTo: upTo(), limit: BATCH })];
    if (!batch.length) return cursor;
    const mineKnown = lastMineWalkRun(mirror.db);
    let passed = false;
    for (const event of batch) {
      // An action item's `mine` (MTG_EVENT_MINE) is known once a default-assignee walk has completed
      // in the event's run or later: a sync that failed before it leaves its action-item events,
      // and every event after them (seq order), for the sync that completes it.
      if (
        event.resource === 'action-items' &&
        event.run > mineKnown &&
        (!wanted.size || wanted.has(event.resource))
      ) {
        if (passed) writeCursor(mirror, consumer, cursor);
        return cursor;
      }
      if (hooks.signal.aborted) {
        if (passed) writeCursor(mirror, consumer, cursor);
        throw new InterruptedError();
      }
      if (wanted.size && !wanted.has(event.resource)) {
        cursor = event.seq;
        passed = true;
        continue;
      }
      // The line first, its seq after: a kill between the two (the few microseconds of the
      // cursor's commit) hands that one event over again; none is ever recorded unprinted.
      await hooks.print(event);
      if (hooks.exec) await hooks.exec(event);
      writeCursor(mirror, consumer, event.seq);
      cursor = event.seq;
      passed = false;
    }
    if (passed) writeCursor(mirror, consumer, cursor);
  }
}

/** The latest run in which a default-assignee walk of the action items completed (0: none). */
function lastMineWalkRun(db: Db): number {
  return (
    db
      .prepare<{ run: number | null }>(
        `SELECT max(run) AS run FROM walks WHERE resource = 'action-items' AND completed_at IS NOT NULL AND query LIKE '%"mine"]'`,
      )
      .get()?.run ?? 0
  );
}

async function waitUntil(deadline: number, interval: number, hooks: WatchHooks, clock: Clock): Promise<void> {
  for (let left = deadline - clock.now(); left > 0; left = deadline - clock.now()) {
    hooks.waiting(left, interval);
    await sleep(Math.min(left, 1000), hooks.signal, clock);
  }
}
