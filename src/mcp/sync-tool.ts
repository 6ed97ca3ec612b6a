// The one in-process sync of `mtg mcp` (the `sync` tool and --sync-every share it), and what keeps
// a `sync` call within a client's request timeout (60 s in common clients; a first sync on the
// Free plan takes minutes). A call answers after at most SYNC_TIME_BOUND_MS: when the run is not
// done by then, it goes on in the server and the answer says complete: false with a sentence to
// call sync again, and the next call waits for that same run. Stopping the run instead would cost
// requests: the engine resumes an interrupted walk, but walks again every list the cut run had
// completed, so on a small plan calls that each stop early could never reach the end.

import { SyncLockedError } from '../mirror/lock.js';
import { type Clock, realClock } from '../shared/clock.js';
import { UsageError } from '../shared/errors.js';
import type { MirrorAccess, StoredSyncProgress, SyncSummary } from './mirror-access.js';

/** How long one `sync` call may wait for the run before it answers (under a 60 s timeout). */
export const SYNC_TIME_BOUND_MS = 45_000;

export const SYNC_DESCRIPTION =
  'Fetch what changed from the service into the mirror now (paced by the rate limit; this sends ' +
  'requests). Returns the summary of `mtg sync --json`: {complete, requests, durationMs, meetings, ' +
  'actionItems, people, companies, transcripts}. A call answers within about 45 seconds; a first sync, ' +
  'or a large one on a small plan (Free: 20 requests a minute), takes minutes: then the answer has ' +
  'complete: false, running: true, progress (the list it walks, items so far, lists done of how many) and a note, the sync goes on in the server, and you call sync again ' +
  'to wait for it (repeat until complete is true). The same answer comes while a sync started otherwise ' +
  "(this server's --sync-every, or `mtg sync` in another process) runs. Usually not needed: the mirror " +
  'is kept by `mtg sync`.';

export const BUDGET_DESCRIPTION =
  'at most this many requests, then the sync stops (complete: false; call sync again to continue)';

/** One progress report: requests sent so far (it only grows), and a sentence. */
export interface SyncProgressReport {
  progress: number;
  message: string;
}

/** A sync call's answer: the summary, or while the run goes on, what it has done so far. */
export type SyncAnswer =
  | (SyncSummary & { note?: string })
  | {
      complete: false;
      running: true;
      requests: number;
      durationMs: number;
      progress?: StoredSyncProgress;
      note: string;
    }
  | {
      complete: false;
      running: true;
      pid: number;
      since: string;
      progress?: StoredSyncProgress;
      note: string;
    };

/** The progress in words: "walking meetings (page 3, 15 items so far), 2 of 7 lists done". */
export function progressWords(p: StoredSyncProgress): string {
  return `${phaseWords(p)}, ${p.lists.done} of ${p.lists.total} lists done, ${p.requests} requests sent`;
}

function phaseWords(p: StoredSyncProgress): string {
  if (p.phase === null) return 'finishing';
  if (p.phase === 'transcripts')
    return `fetching transcripts (${p.transcripts.fetched} fetched, ${p.transcripts.pending} to go)`;
  if (p.phase === 'company-details') return "fetching the companies' details";
  const page = p.pages === undefined ? '' : ` (page ${p.pages}, ${p.items} items so far)`;
  return `walking ${p.phase}${page}`;
}

interface Running {
  since: number;
  promise: Promise<SyncSummary>;
  /** Started by the `sync` tool or by --sync-every: a `sync` call waits for either. */
  byTool: boolean;
  budget: number | undefined;
  requests: number;
  listeners: Set<(p: SyncProgressReport) => void>;
}

/** One sync at a time in this process; another process's sync is refused by the engine's lock. */
export class InProcessSync {
  private running: Running | undefined;
  private readonly timeBoundMs: number;
  private readonly clock: Clock;

  /**
   * `timeBoundMs`: how long a `sync` call waits for the run (SYNC_TIME_BOUND_MS; tests: less);
   * `clock`: what that bound and a run's duration are measured on (the Context's).
   */
  constructor(
    private readonly access: MirrorAccess,
    options: { timeBoundMs?: number; clock?: Clock } = {},
  ) {
    this.timeBoundMs = options.timeBoundMs ?? SYNC_TIME_BOUND_MS;
    this.clock = options.clock ?? realClock;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** A background sync of --sync-every, to its end. */
  run(): Promise<SyncSummary> {
    return this.start(undefined, false).promise;
  }

  /**
   * The `sync` tool: a new run (or the one an earlier call left running, whatever `budget` this
   * call gives), waited for at most the time bound; `report` gets its progress meanwhile.
   */
  async call(budget: number | undefined, report?: (p: SyncProgressReport) => void): Promise<SyncAnswer> {
    try {
      return await this.waitFor(this.running ?? this.start(budget, true), report);
    } catch (err) {
      // Another process holds the sync lock: its progress is its own; say it runs and since when.
      if (!(err instanceof SyncLockedError)) throw err;
      const progress = this.storedProgress();
      const doing = progress ? `: ${progressWords(progress)}` : '';
      return {
        complete: false,
        running: true,
        pid: err.holder.pid,
        since: err.holder.startedAt,
        ...(progress && { progress }),
        note: `a sync of profile ${this.access.profile} is running in another process (PID ${err.holder.pid}, since ${err.holder.startedAt})${doing}; what it fetched is readable now: call sync again later to wait for it`,
      };
    }
  }

  /**
   * The running sync's progress as it has committed it, or undefined: a failed read must not turn
   * the answer that a sync runs into an error.
   */
  private storedProgress(): StoredSyncProgress | undefined {
    try {
      return this.access.syncProgress();
    } catch {
      return undefined;
    }
  }

  /** Waits for `run` at most the time bound: its summary, or that it is still running. */
  private async waitFor(run: Running, report?: (p: SyncProgressReport) => void): Promise<SyncAnswer> {
    if (report) run.listeners.add(report);
    let cancelBound: (() => void) | undefined;
    const bound = new Promise<'bound'>((resolve) => {
      cancelBound = this.clock.timeout(() => resolve('bound'), this.timeBoundMs);
    });
    try {
      const ended = await Promise.race([run.promise, bound]);
      if (ended !== 'bound') {
        if (ended.complete || run.budget === undefined) return ended;
        return {
          ...ended,
          note: `stopped at the budget of ${run.budget} requests; what was fetched is kept: call sync again to continue`,
        };
      }
      const progress = this.storedProgress();
      const doing = progress ? progressWords(progress) : `${run.requests} requests so far`;
      return {
        complete: false,
        running: true,
        requests: run.requests,
        durationMs: this.clock.now() - run.since,
        ...(progress && { progress }),
        note: `the sync is still running in this server (${doing}, paced by the rate limit); what it fetched is kept and readable now: call sync again to wait for the rest`,
      };
    } finally {
      cancelBound?.();
      if (report) run.listeners.delete(report);
    }
  }

  private start(budget: number | undefined, byTool: boolean): Running {
    const current = this.running;
    if (current) {
      throw new UsageError(
        `a sync of profile ${this.access.profile} is already running in this server (PID ${process.pid}, since ${new Date(current.since).toISOString()}); wait for it`,
      );
    }
    const run: Running = {
      since: this.clock.now(),
      byTool,
      budget,
      requests: 0,
      listeners: new Set(),
      promise: undefined as unknown as Promise<SyncSummary>,
    };
    const onProgress = (requests: number) => {
      if (requests <= run.requests) return;
      run.requests = requests;
      const message = `${requests} requests sent`;
      for (const listener of run.listeners) listener({ progress: requests, message });
    };
    run.promise = this.access.sync({ budget, onProgress }).finally(() => {
      if (this.running === run) this.running = undefined;
    });
    // A run no call waits for any more (the bound passed) must not be an unhandled rejection.
    run.promise.catch(() => undefined);
    this.running = run;
    return run;
  }

  /** Waits for a running sync to end (its requests stop when the command's signal aborts). */
  async settle(): Promise<void> {
    await this.running?.promise.catch(() => undefined);
  }
}
