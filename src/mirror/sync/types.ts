// What a sync run is asked to do and what it reports: the options, the progress events and the
// summary (the contract's `mtg sync --json` object). The engine reports numbers (counts, ms); the
// command formats them.

export const SYNC_RESOURCES = ['meetings', 'action-items', 'people', 'companies'] as const;
export type SyncResource = (typeof SYNC_RESOURCES)[number];

/** A sync pass as stored (pass.ts). */
export interface Pass {
  readonly id: number;
  readonly openedAt: string;
  /** Opened by --full: its lists walked from page 1, and what `scope` covers fetched again. */
  readonly full: boolean;
  readonly scope: { lists: SyncResource[]; transcripts: boolean };
}

export interface SyncOptions {
  /** The lists to walk (default: all four). Transcripts go with meetings. */
  only?: readonly SyncResource[];
  /** Fetch transcripts (default true). */
  transcripts?: boolean;
  /** Fetch every transcript again, and start every walk from its first page. */
  full?: boolean;
  /** At most this many HTTP requests (retries included) in this run, then stop cleanly. */
  budget?: number;
  /**
   * Transcript requests in flight at once. Default 1: the client's limiter paces by the one window
   * each response reports, and with several requests in flight a report of the longer window can
   * hide a per-second window that the requests in flight already used up (a 429 under tight
   * windows). One at a time, every request sees the latest report, which names the window closest
   * to exhaustion. Rate limits, not latency, bound a sync's speed.
   */
  concurrency?: number;
  /**
   * Ends this run (InterruptedError) before its next request, leaving the mirror as consistent as
   * any interrupted run does; the client and its other users go on.
   */
  signal?: AbortSignal;
}

export interface ResourceCounts {
  created: number;
  updated: number;
  deleted: number;
  total: number;
}

/** The contract's `mtg sync --json` object. */
export interface SyncSummary {
  complete: boolean;
  requests: number;
  durationMs: number;
  meetings: ResourceCounts;
  actionItems: ResourceCounts;
  people: ResourceCounts;
  companies: ResourceCounts;
  transcripts: { fetched: number; pending: number };
}

export type SyncPhase = SyncResource | 'my-action-items' | 'company-details' | 'transcripts';

export interface SyncProgressEvent {
  phase: SyncPhase;
  /** Requests sent so far in this run. */
  requests: number;
  /** Pages committed in this phase (list phases). */
  pages: number;
  /** Items committed in this phase (list phases) or transcripts fetched (transcripts). */
  items: number;
  /** Transcripts still to fetch (transcripts phase). */
  left?: number;
  /**
   * Requests still to make in this run: the pages left of this and the later list walks (each as
   * large as its last complete walk) and the transcripts left. Undefined while that cannot be known
   * (a walk never completed before, or the meetings walk has not told the transcripts yet).
   */
  requestsLeft?: number;
  /** Estimated time for requestsLeft, at the pace the rate limit allows; undefined: unknown. */
  etaMs?: number;
  /** The phase ended. */
  done?: boolean;
  /** The last event again, with its estimate counted down while a wait sends nothing (no new counts). */
  refreshed?: boolean;
  /**
   * Sent once, before the first request of a run with --budget, when the runs before it walked
   * these lists to their end in the pass it goes on with: this run does not walk them again
   * (pass-walks.ts).
   */
  walkedInPass?: SyncPhase[];
}

export type SyncProgress = (event: SyncProgressEvent) => void;

/** What a run that stopped on an error had done, by the error runSync() rethrew. */
export interface SyncStopped {
  /** The counts so far (complete: false). */
  summary: SyncSummary;
  /** Whether the run committed anything (a page or a transcript). */
  committed: boolean;
}
