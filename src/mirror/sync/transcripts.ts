// The transcripts of new and changed meetings, fetched after the walks: a queue of the meetings
// whose stored transcript is missing or older than their updatedAt, one transaction per transcript
// (a killed run keeps every transcript it stored), paced by the client's limiter.

import * as E from '../../api/endpoints.js';
import { ApiError } from '../../api/errors.js';
import type { Db } from '../driver.js';
import { toJsonText } from '../json.js';
import { fullSince, openPass, reopenList } from './pass.js';
import { now, type RunState } from './state.js';

/** Meetings whose transcript is missing or older than their updatedAt (with `since`, --full: all not fetched since). */
export function pendingTranscripts(db: Db, since?: string): { id: string; updatedAt: string | null }[] {
  return db
    .prepare<{ id: string; updatedAt: string | null }>(
      `SELECT m.id, m.updated_at AS updatedAt FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id
       WHERE ${PENDING} ORDER BY m.position IS NULL, m.position, m.id`,
    )
    .all(since ?? null);
}

/**
 * Transcripts still to fetch in a mirror (the sync's summary, `mtg mirror status`), less the
 * meetings `gone`: those of new and changed meetings, and while a --full pass is open (stopped by
 * --budget, --max-wait, an error or a kill) those it has not fetched again yet, which the next
 * sync fetches.
 */
export function pendingTranscriptCount(db: Db, gone: ReadonlySet<string> = new Set()): number {
  const pass = openPass(db);
  return db
    .prepare<{ n: number }>(
      `SELECT count(*) AS n FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id
       WHERE ${PENDING} AND m.id NOT IN (SELECT value FROM json_each(?))`,
    )
    .get(pass ? (fullSince(pass, 'transcripts') ?? null) : null, toJsonText([...gone]))!.n;
}

/** A live meeting whose transcript is missing, stale, or fetched before the one parameter (null: never). */
const PENDING = `m.deleted_at IS NULL AND (t.meeting_id IS NULL OR t.for_updated_at IS NOT m.updated_at
  OR t.fetched_at < ?)`;

export async function fetchTranscripts(state: RunState): Promise<void> {
  const { db } = state;
  const queue = pendingTranscripts(db, fullSince(state.pass, 'transcripts'));
  const total = queue.length;
  const get = db.prepare<{ json: string }>('SELECT json FROM transcripts WHERE meeting_id = ?');
  const ins = db.prepare(
    'INSERT INTO transcripts(meeting_id, json, for_updated_at, fetched_at) VALUES (?, ?, ?, ?)',
  );
  const upd = db.prepare(
    'UPDATE transcripts SET json = ?, for_updated_at = ?, fetched_at = ? WHERE meeting_id = ?',
  );
  const store = (id: string, updatedAt: string | null, entries: unknown) => {
    const json = toJsonText(entries);
    db.transaction(() => {
      const old = get.get(id);
      if (!old) ins.run(id, json, updatedAt, now());
      else upd.run(json, updatedAt, now(), id);
      state.saveRequests.run(state.meter.count(), state.run);
      if (!old || old.json !== json) {
        state.passages.rewrite(id);
        state.record('transcripts', id, old ? 'updated' : 'created', []);
      }
    });
    state.commits++;
  };

  let next = 0;
  let done = 0;
  let failure: unknown;
  const report = (finished = false) =>
    state.progress.transcripts(state.transcriptsFetched, total - done, finished);
  const worker = async () => {
    // Bounded by the queue: each pass takes the next meeting or ends.
    while (failure === undefined && next < queue.length) {
      const { id, updatedAt } = queue[next++]!;
      try {
        const entries = await E.getTranscript(state.client, id);
        store(id, updatedAt, entries);
        state.transcriptsFetched++;
      } catch (err) {
        // Deleted on the server since the walk: its tombstone comes with the next completed walk
        // of the meetings, which the pass now needs again (a budgeted run after this one makes it).
        if (!(err instanceof ApiError && err.status === 404)) {
          failure ??= err;
          return;
        }
        state.transcriptsGone.add(id);
        reopenList(db, state.pass, 'meetings');
      }
      done++;
      report();
    }
  };
  report();
  const n = Math.max(1, Math.min(state.options.concurrency ?? 1, queue.length));
  await Promise.all(Array.from({ length: n }, worker));
  if (failure !== undefined) throw failure;
  report(true);
}
