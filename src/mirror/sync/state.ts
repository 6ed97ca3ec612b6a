// What the parts of one sync run share: the database and client, the run's id and options, its
// request meter, change recorder, passage writer, counts, and its progress (with the estimate of
// what is left).

import type { ApiClient } from '../../api/client.js';
import type { RequestMeter } from '../../api/hooks.js';
import type { RecordChange } from '../changes.js';
import type { Db, Statement } from '../driver.js';
import type { passageWriter } from '../passages.js';
import type { ListDef } from './tables.js';
import type { Pass, SyncOptions, SyncPhase, SyncProgress, SyncProgressEvent, SyncResource } from './types.js';

/** How often the estimate shown is counted down while no request ends (a wait for a window). */
export const REFRESH_MS = 1_000;

export interface RunState {
  readonly db: Db;
  readonly client: ApiClient;
  /** The row of `runs`. */
  readonly run: number;
  readonly options: SyncOptions;
  readonly only: ReadonlySet<SyncResource>;
  readonly transcriptsWanted: boolean;
  readonly meter: RequestMeter;
  readonly record: RecordChange;
  readonly passages: ReturnType<typeof passageWriter>;
  readonly counts: Record<SyncResource, { created: number; updated: number; deleted: number }>;
  transcriptsFetched: number;
  /** Meetings whose transcript answered 404 in this run: not pending until a walk decides. */
  readonly transcriptsGone: Set<string>;
  /** The pass this run goes on with (pass.ts): with --full's, what is fetched again. */
  readonly pass: Pass;
  /** Transactions committed (pages and transcripts) in this run. */
  commits: number;
  /** `runs.requests` brought up to date, with each commit: a killed run still shows its requests. */
  readonly saveRequests: Statement;
  readonly progress: RunProgress;
}

/**
 * The progress events and their estimate of the requests (and time) left: the pages of this and
 * the later walks, each as large as its last complete walk, and the transcripts.
 */
export class RunProgress {
  /** Transcripts to fetch after the walks, once the meetings walk has told (shown in every phase). */
  transcriptsLeft: number | undefined;
  /** The walks still to run (the current one first), each with the pages its last complete walk had. */
  walksLeft: { def: ListDef; expected: number | undefined }[] = [];
  /** Transcripts pending when the run began: the estimate until the meetings walk has told. */
  transcriptsPending: number | undefined;
  /** Pages of the current walk committed so far (a resumed walk's earlier pages included). */
  walkPages = 0;

  constructor(
    private readonly client: ApiClient,
    private readonly meter: RequestMeter,
    private readonly transcriptsWanted: boolean,
    private readonly emit: SyncProgress,
  ) {}

  /** Requests still to make (see SyncProgressEvent.requestsLeft), or undefined when not known. */
  private requestsLeft(): number | undefined {
    let n = 0;
    for (const [i, walk] of this.walksLeft.entries()) {
      if (walk.expected === undefined) return undefined;
      n += i === 0 ? Math.max(0, walk.expected - this.walkPages) : walk.expected;
    }
    if (this.transcriptsWanted) {
      const transcripts = this.transcriptsLeft ?? this.transcriptsPending;
      if (transcripts === undefined) return undefined;
      n += transcripts;
    }
    return n;
  }

  /**
   * Time for `left` requests: the slowest of the recent pace, the tightest window's sustainable
   * pace (a short window's burst makes the recent pace look fast), and the limiter's least time
   * under the windows as they stand now (which counts the wait for a full window in progress). The
   * paced part was true when the last event was sent, `sinceMs` ago: it counts down as a wait goes on.
   */
  eta(left: number, sinceMs = 0): number | undefined {
    const recent = this.meter.msPerRequest();
    const window = this.client.limiter.sustainableMsPerRequest();
    const floor = this.client.limiter.minimumMs(left);
    if (recent === undefined && window === undefined && floor === undefined) return undefined;
    const paced = left * Math.max(recent ?? 0, window ?? 0) - sinceMs;
    return Math.round(Math.max(paced, floor ?? 0, 0));
  }

  /** The last event not `done`, to show again with a fresh estimate while no request ends. */
  private last: { event: SyncProgressEvent; left: number; at: number } | undefined;

  /** Times are the limiter's clock (the command's, ctx.clock), so a virtual clock drives the estimate too. */
  private send(event: SyncProgressEvent): void {
    this.last =
      event.done || event.requestsLeft === undefined
        ? undefined
        : { event, left: event.requestsLeft, at: this.client.limiter.clock.now() };
    this.emit(event);
  }

  /**
   * The last event again, its estimate counted down (`refreshed`): a wait for a per-minute window
   * sends nothing for up to a minute, and the estimate shown must not stand still meanwhile.
   */
  refresh(): void {
    const last = this.last;
    const since = this.client.limiter.clock.now() - (last?.at ?? 0);
    if (last === undefined || since < REFRESH_MS) return;
    this.emit({ ...last.event, etaMs: this.eta(last.left, since), refreshed: true });
  }

  list(phase: SyncPhase, pages: number, items: number, done?: boolean): void {
    const left = this.transcriptsLeft;
    const requestsLeft = this.requestsLeft();
    this.send({
      phase,
      requests: this.meter.count(),
      pages,
      items,
      ...(left !== undefined && { left }),
      ...(requestsLeft !== undefined && { requestsLeft, etaMs: this.eta(requestsLeft) }),
      ...(done && { done }),
    });
  }

  /** The lists the runs before this one walked to their end in its pass (not walked again). */
  walkedInPass(phases: SyncPhase[]): void {
    this.emit({
      phase: phases[0]!,
      requests: this.meter.count(),
      pages: 0,
      items: 0,
      done: true,
      walkedInPass: phases,
    });
  }

  /** The companies' details (details.ts): `left` of them, then the transcripts. */
  companyDetails(fetched: number, left: number, done: boolean): void {
    const transcripts = this.transcriptsWanted ? (this.transcriptsLeft ?? this.transcriptsPending) : 0;
    const requestsLeft = transcripts === undefined ? undefined : left + transcripts;
    this.send({
      phase: 'company-details',
      requests: this.meter.count(),
      pages: 0,
      items: fetched,
      left,
      ...(requestsLeft !== undefined && { requestsLeft, etaMs: this.eta(requestsLeft) }),
      ...(done && { done }),
    });
  }

  transcripts(fetched: number, left: number, done: boolean): void {
    this.send({
      phase: 'transcripts',
      requests: this.meter.count(),
      pages: 0,
      items: fetched,
      left,
      requestsLeft: left,
      etaMs: this.eta(left),
      done,
    });
  }
}

export function now(): string {
  return new Date().toISOString();
}
