// The detail of new and changed companies (GET /company/{domain}: the externalLinks no list
// carries), fetched after the walks so that `companies view --offline` answers what the API does:
// a queue of the live companies whose stored detail is missing or was fetched for another summary
// (with --full: not fetched since the run began), one transaction per company (a killed run keeps
// every detail it stored; the next one fetches only the rest), paced by the client's limiter.

import * as E from '../../api/endpoints.js';
import { ApiError } from '../../api/errors.js';
import type { Db } from '../driver.js';
import { toJsonText } from '../json.js';
import { fullSince } from './pass.js';
import { now, type RunState } from './state.js';

/** Companies whose detail is missing or stale (with `since`, --full: also all not fetched since). */
export function pendingCompanyDetails(db: Db, since?: string): string[] {
  const full = since !== undefined;
  return db
    .prepare<{ domain: string }>(
      `SELECT domain FROM companies WHERE deleted_at IS NULL
       AND (detail_json IS NULL OR detail_for IS NOT json${full ? ' OR detail_fetched_at < ?' : ''})
       ORDER BY position IS NULL, position, domain`,
    )
    .all(...(full ? [since] : []))
    .map((r) => r.domain);
}

export async function fetchCompanyDetails(state: RunState): Promise<void> {
  const { db } = state;
  const queue = pendingCompanyDetails(db, fullSince(state.pass, 'companies'));
  const store = db.prepare(
    'UPDATE companies SET detail_json = ?, detail_for = json, detail_fetched_at = ? WHERE domain = ?',
  );
  let fetched = 0;
  let done = 0;
  const report = (finished = false) => state.progress.companyDetails(fetched, queue.length - done, finished);
  report();
  // Bounded by the queue; one request at a time (see SyncOptions.concurrency).
  for (const domain of queue) {
    try {
      const detail = await E.getCompany(state.client, domain);
      db.transaction(() => {
        store.run(toJsonText(detail), now(), domain);
        state.saveRequests.run(state.meter.count(), state.run);
      });
      state.commits++;
      fetched++;
    } catch (err) {
      // Deleted on the server since the walk: its tombstone comes with the next completed walk.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
    done++;
    report();
  }
  report(true);
}
