// A running sync's progress as another process sees it, read from what the run commits as it goes
// (the `runs` row's requests, its pass's lists, their walks' pages and items, the transcripts
// stored since it started): `mtg mcp`'s `sync` tool answers it while a sync of another process
// holds the lock. A plain read: WAL never makes it wait for the sync.

import type { Db } from '../driver.js';
import { openPass } from './pass.js';
import { listDefs } from './tables.js';
import { pendingTranscriptCount } from './transcripts.js';
import { SYNC_RESOURCES, type SyncPhase } from './types.js';

/** The order a run takes its lists in: its walks, then the queues (run.ts's pass lists). */
const PHASES: readonly SyncPhase[] = [
  ...listDefs(new Set(SYNC_RESOURCES)).map((def) => def.phase),
  'company-details',
  'transcripts',
];

export interface StoredSyncProgress {
  /** The run (`runs.id`) and when it started. */
  run: number;
  startedAt: string;
  /** Requests it has sent, as of its last commit. */
  requests: number;
  /** The list it walks now (or the queue it fetches), null when every list is done (it is ending). */
  phase: SyncPhase | null;
  /** The current list walk's pages and items so far (a list phase whose walk has begun). */
  pages?: number;
  items?: number;
  /** The lists of its pass (each list walk, the company details, the transcripts) done, of how many. */
  lists: { done: number; total: number };
  /** Transcripts stored since it started, and those still to fetch. */
  transcripts: { fetched: number; pending: number };
}

interface ListRow {
  list: SyncPhase;
  completed: number;
  walk_run: number | null;
  pages: number | null;
  items: number | null;
}

/** The unfinished last run's progress, or undefined when the last run has finished (or none ran). */
export function storedSyncProgress(db: Db): StoredSyncProgress | undefined {
  // One read transaction: the figures are of one commit of the running sync.
  db.exec('BEGIN');
  try {
    const run = db
      .prepare<{ id: number; started_at: string; finished_at: string | null; requests: number }>(
        'SELECT id, started_at, finished_at, requests FROM runs ORDER BY id DESC LIMIT 1',
      )
      .get();
    const pass = openPass(db);
    if (run === undefined || run.finished_at !== null || pass === undefined) return undefined;
    const rows = db
      .prepare<ListRow>(
        `SELECT l.list, l.completed_at IS NOT NULL AS completed, w.run AS walk_run, w.pages, w.items
         FROM pass_lists l LEFT JOIN walks w ON w.id = l.walk WHERE l.pass = ?`,
      )
      .all(pass.id);
    const order = (r: ListRow) => PHASES.indexOf(r.list);
    rows.sort((a, b) => order(a) - order(b));
    // The walk this run has committed a page of and not completed; else the first list left.
    const current =
      rows.find((r) => !r.completed && r.walk_run === run.id && r.pages !== null) ??
      rows.find((r) => !r.completed);
    const fetched = db
      .prepare<{ n: number }>('SELECT count(*) AS n FROM transcripts WHERE fetched_at >= ?')
      .get(run.started_at)!.n;
    return {
      run: run.id,
      startedAt: run.started_at,
      requests: run.requests,
      phase: current?.list ?? null,
      ...(current?.pages != null && { pages: current.pages, items: current.items ?? 0 }),
      lists: { done: rows.filter((r) => r.completed).length, total: rows.length },
      transcripts: { fetched, pending: pendingTranscriptCount(db) },
    };
  } finally {
    db.exec('COMMIT');
  }
}
