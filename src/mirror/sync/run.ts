// One sync run: its bookkeeping (the `runs` row, the sync lock, WAL checkpoints, the request
// meter on the client's hooks) around the list walks (walk.ts), the companies' details
// (details.ts) and the transcripts (transcripts.ts), and its summary.
//
// Crash safety comes from committing as it goes: one transaction per page and one per transcript.
// Killed anywhere, the mirror holds whole pages and whole transcripts; the next sync goes on with
// the open pass (pass.ts): each interrupted walk from its committed next_url, the lists the pass
// completed left out when it has --budget, and no transcript fetched again that is stored for its
// meeting's current updatedAt.

import type { ApiClient } from '../../api/client.js';
import { meterRequests, RequestBudgetReached } from '../../api/hooks.js';
import { InterruptedError, UsageError } from '../../shared/errors.js';
import { changeRecorder } from '../changes.js';
import type { Db } from '../driver.js';
import { toJsonText } from '../json.js';
import { acquireSyncLock } from '../lock.js';
import { writeMeta } from '../meta.js';
import { type Mirror, normalizeBaseUrl } from '../open.js';
import { passageWriter } from '../passages.js';
import { fetchCompanyDetails } from './details.js';
import { beginPass, closeIfComplete, completeQueue } from './pass.js';
import { walkPass } from './pass-walks.js';
import { now, REFRESH_MS, RunProgress, type RunState } from './state.js';
import { listDefs, TABLES } from './tables.js';
import { fetchTranscripts, pendingTranscriptCount } from './transcripts.js';
import {
  SYNC_RESOURCES,
  type SyncOptions,
  type SyncPhase,
  type SyncProgress,
  type SyncStopped,
  type SyncSummary,
} from './types.js';

const stopped = new WeakMap<object, SyncStopped>();

/** The partial summary of a run that ended with `err` (undefined for other errors). */
export function syncStopped(err: unknown): SyncStopped | undefined {
  return typeof err === 'object' && err !== null ? stopped.get(err) : undefined;
}

/**
 * One sync run of `mirror` through `client`. Takes the profile's sync lock (SyncLockedError, exit 1,
 * when another holds it), records the run, and returns the summary; stopping at `options.budget`
 * is not an error (complete: false). Other errors propagate, with the counts so far under
 * syncStopped(err); the mirror is consistent, the next run resumes, and the lock is released
 * either way. It keeps no state between calls and subscribes to the client's hooks only while it
 * runs: a long-running process may call it again and again on one client and one mirror.
 */
export async function runSync(
  client: ApiClient,
  mirror: Mirror,
  options: SyncOptions = {},
  progress: SyncProgress = () => {},
): Promise<SyncSummary> {
  const db = mirror.db;
  if (mirror.baseUrl !== undefined && normalizeBaseUrl(client.baseUrl.href) !== mirror.baseUrl) {
    throw new UsageError(
      `The mirror of profile ${mirror.profile} holds ${mirror.baseUrl}, not ${normalizeBaseUrl(client.baseUrl.href)}: run \`mtg mirror reset\` to start it over`,
    );
  }
  if (options.signal?.aborted) throw new InterruptedError();
  const release = acquireSyncLock(db, mirror.profile);
  const checkpoints = walCheckpointsForSync(db);
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const meter = meterRequests(client.hooks, options.budget);
  const signal = options.signal;
  const stopOnAbort = signal
    ? client.hooks.before(() => {
        if (signal.aborted) throw new InterruptedError();
      })
    : () => {};
  const run = Number(db.prepare('INSERT INTO runs(started_at) VALUES (?)').run(startedAt).lastInsertRowid);
  writeMeta(db, 'last_sync_run', String(run));
  const state = runState(db, client, run, options, meter, progress, startedAt);
  // While the limiter waits for a window nothing ends, so nothing would tell the time left. On the
  // limiter's clock (the command's), so that a virtual clock refreshes the estimate during its waits.
  const clock = client.limiter.clock;
  let stopRefresher = clock.timeout(function refresh() {
    state.progress.refresh();
    stopRefresher = clock.timeout(refresh, REFRESH_MS);
  }, REFRESH_MS);
  let complete = false;
  let summary: SyncSummary | undefined;
  let error: string | null = null;
  try {
    try {
      await walkPass(state, state.pass);
      if (state.only.has('companies')) {
        await fetchCompanyDetails(state);
        completeQueue(db, state.pass, 'company-details');
      }
      if (state.transcriptsWanted) {
        await fetchTranscripts(state);
        completeQueue(db, state.pass, 'transcripts');
      }
      closeIfComplete(db, state.pass);
      complete = true;
    } catch (err) {
      if (!(err instanceof RequestBudgetReached && options.budget !== undefined)) {
        error = err instanceof Error ? err.message : String(err);
        try {
          summary = summarize(state, false, meter.count(), Date.now() - started);
          stopped.set(err as object, { summary, committed: state.commits > 0 });
        } catch {
          // The mirror itself failed (disk full, corrupt): no counts to report.
        }
        throw err;
      }
    }
    summary = summarize(state, complete, meter.count(), Date.now() - started);
    return summary;
  } finally {
    stopRefresher();
    meter.stop();
    stopOnAbort();
    try {
      db.prepare(
        'UPDATE runs SET finished_at = ?, complete = ?, requests = ?, summary = ?, error = ? WHERE id = ?',
      ).run(now(), complete ? 1 : 0, meter.count(), summary ? toJsonText(summary) : null, error, run);
    } finally {
      checkpoints.restore();
      release();
    }
  }
}

function runState(
  db: Db,
  client: ApiClient,
  run: number,
  options: SyncOptions,
  meter: RunState['meter'],
  emit: SyncProgress,
  startedAt: string,
): RunState {
  const only = new Set(options.only?.length ? options.only : SYNC_RESOURCES);
  const transcriptsWanted = only.has('meetings') && options.transcripts !== false;
  const zero = () => ({ created: 0, updated: 0, deleted: 0 });
  const lists: SyncPhase[] = [
    ...listDefs(only).map((def) => def.phase),
    ...(only.has('companies') ? (['company-details'] as const) : []),
    ...(transcriptsWanted ? (['transcripts'] as const) : []),
  ];
  const scope = { lists: [...only], transcripts: transcriptsWanted };
  return {
    pass: beginPass(db, { lists, scope, full: options.full === true }, startedAt),
    db,
    client,
    run,
    options,
    only,
    transcriptsWanted,
    meter,
    record: changeRecorder(db, run, now),
    passages: passageWriter(db),
    counts: { meetings: zero(), 'action-items': zero(), people: zero(), companies: zero() },
    transcriptsFetched: 0,
    transcriptsGone: new Set(),
    commits: 0,
    saveRequests: db.prepare('UPDATE runs SET requests = ? WHERE id = ?'),
    progress: new RunProgress(client, meter, transcriptsWanted, emit),
  };
}

function summarize(state: RunState, complete: boolean, requests: number, durationMs: number): SyncSummary {
  const summary = { complete, requests, durationMs } as SyncSummary;
  for (const resource of SYNC_RESOURCES) {
    const { table, summaryKey } = TABLES[resource];
    const total = state.db
      .prepare<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE deleted_at IS NULL`)
      .get()!.n;
    summary[summaryKey] = { ...state.counts[resource], total };
  }
  // As the progress counts them: a meeting whose transcript answered 404 is not left to fetch.
  summary.transcripts = {
    fetched: state.transcriptsFetched,
    pending: pendingTranscriptCount(state.db, state.transcriptsGone),
  };
  return summary;
}

/**
 * A sync commits once per page: with SQLite's default (a checkpoint whenever the WAL passes 1,000
 * pages, each with an fsync) a first sync of 100,000 action items spent about as long
 * checkpointing as writing. During a sync the WAL may grow to 16,384 pages (64 MB with 4 KB pages)
 * before a checkpoint, and one passive checkpoint follows the run. Durability is unchanged: a WAL
 * commit survives the process being killed whether or not it has been checkpointed.
 */
function walCheckpointsForSync(db: Db): { restore(): void } {
  const before = Number(db.pragma('wal_autocheckpoint'));
  db.pragma('wal_autocheckpoint = 16384');
  return {
    restore() {
      try {
        db.pragma(`wal_autocheckpoint = ${before}`);
        // PASSIVE: never waits for readers; what it cannot copy now, a later checkpoint does.
        db.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // The mirror failed (disk full, say): the run's own error is what to report.
      }
    },
  };
}
