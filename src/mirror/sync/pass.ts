// The sync's pass, stored (schema 6: `passes`, `pass_lists`): the work that brings the mirror
// level with the server once, which runs stopped early (--budget, an error, Ctrl-C, a kill) share.
// A pass records its scope (the lists, and transcripts or not, of the run that opened it: what a
// --full pass covers), when it opened and closed, and one row per list of it (each list walk, the
// company details, the transcripts) naming the list's current walk (whose `next_url` is its cursor)
// and when the list completed. Every run goes on with the open pass; --full opens a new one; a pass
// whose lists have all completed closes, and the next run opens the next.

import type { Db } from '../driver.js';
import { toJsonText } from '../json.js';
import { now } from './state.js';
import type { Pass, SyncPhase } from './types.js';

export interface PassList {
  /** The list's current walk in this pass (walks.id), undefined before it starts. */
  walk: number | undefined;
  completed: boolean;
}

/** A queue that follows a list: what the list's walk adds to it is fetched after it. */
const QUEUE_OF: Partial<Record<SyncPhase, SyncPhase>> = {
  meetings: 'transcripts',
  companies: 'company-details',
};

/**
 * The pass this run goes on with, its rows for `lists` (the run's) added: the open pass, or a new
 * one when none is open or the run has --full. A --full run gives up the open pass's walks of the
 * lists it covers; the open pass's other unfinished walks go on, cursors kept, in the new pass.
 */
export function beginPass(
  db: Db,
  run: { lists: SyncPhase[]; scope: Pass['scope']; full: boolean },
  at: string,
): Pass {
  return db.transaction(() => {
    let pass = openPass(db);
    if (pass === undefined || run.full) {
      const carried: { list: string; walk: number }[] = [];
      if (pass !== undefined) {
        const unfinished = db
          .prepare<{ list: string; walk: number }>(
            'SELECT list, walk FROM pass_lists WHERE pass = ? AND completed_at IS NULL AND walk IS NOT NULL',
          )
          .all(pass.id);
        const abandon = db.prepare('UPDATE walks SET abandoned_at = ? WHERE id = ?');
        for (const row of unfinished) {
          if (run.lists.includes(row.list as SyncPhase)) abandon.run(at, row.walk);
          else carried.push(row);
        }
        db.prepare('UPDATE passes SET closed_at = ? WHERE id = ?').run(at, pass.id);
      }
      const id = Number(
        db
          .prepare('INSERT INTO passes(opened_at, full, scope) VALUES (?, ?, ?)')
          .run(at, run.full ? 1 : 0, toJsonText(run.scope)).lastInsertRowid,
      );
      const carry = db.prepare('INSERT INTO pass_lists(pass, list, walk) VALUES (?, ?, ?)');
      for (const row of carried) carry.run(id, row.list, row.walk);
      pass = { id, openedAt: at, full: run.full, scope: run.scope };
    }
    const add = db.prepare('INSERT OR IGNORE INTO pass_lists(pass, list) VALUES (?, ?)');
    for (const list of run.lists) add.run(pass.id, list);
    return pass;
  });
}

/** The open pass, if any. */
export function openPass(db: Db): Pass | undefined {
  const row = db
    .prepare<{ id: number; opened_at: string; full: number; scope: string }>(
      'SELECT id, opened_at, full, scope FROM passes WHERE closed_at IS NULL',
    )
    .get();
  return row && { id: row.id, openedAt: row.opened_at, full: row.full === 1, scope: JSON.parse(row.scope) };
}

/** The pass's lists as stored. */
export function passLists(db: Db, pass: Pass): Map<SyncPhase, PassList> {
  const rows = db
    .prepare<{ list: SyncPhase; walk: number | null; completed_at: string | null }>(
      'SELECT list, walk, completed_at FROM pass_lists WHERE pass = ?',
    )
    .all(pass.id);
  return new Map(
    rows.map((r) => [r.list, { walk: r.walk ?? undefined, completed: r.completed_at !== null }]),
  );
}

/**
 * The list's walk is now `walk` (a new one, from page 1): the list and the queue that follows it
 * are not complete. Call in the transaction that creates the walk.
 */
export function setListWalk(db: Db, pass: Pass, list: SyncPhase, walk: number): void {
  db.prepare('UPDATE pass_lists SET walk = ?, completed_at = NULL WHERE pass = ? AND list = ?').run(
    walk,
    pass.id,
    list,
  );
  const queue = QUEUE_OF[list];
  if (queue) {
    db.prepare('UPDATE pass_lists SET completed_at = NULL WHERE pass = ? AND list = ?').run(pass.id, queue);
  }
}

/** The list's walk completed: call in the transaction of its last page. */
export function completeList(db: Db, pass: Pass, list: SyncPhase): void {
  db.prepare('UPDATE pass_lists SET completed_at = ? WHERE pass = ? AND list = ?').run(now(), pass.id, list);
}

/**
 * The list must be walked again in this pass (a transcript answered 404: its meeting's tombstone
 * needs a completed walk of the meetings), from page 1.
 */
export function reopenList(db: Db, pass: Pass, list: SyncPhase): void {
  db.prepare('UPDATE pass_lists SET walk = NULL, completed_at = NULL WHERE pass = ? AND list = ?').run(
    pass.id,
    list,
  );
}

/** A queue ran to its end: complete in the pass when the list it follows is (its items all queued). */
export function completeQueue(db: Db, pass: Pass, queue: 'transcripts' | 'company-details'): void {
  const list = queue === 'transcripts' ? 'meetings' : 'companies';
  db.prepare(
    `UPDATE pass_lists SET completed_at = ? WHERE pass = ? AND list = ?
     AND EXISTS (SELECT 1 FROM pass_lists WHERE pass = ? AND list = ? AND completed_at IS NOT NULL)`,
  ).run(now(), pass.id, queue, pass.id, list);
}

/** Closes the pass when every list of it has completed; returns whether it did. */
export function closeIfComplete(db: Db, pass: Pass): boolean {
  return (
    db
      .prepare(
        `UPDATE passes SET closed_at = ? WHERE id = ? AND closed_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM pass_lists WHERE pass = ? AND completed_at IS NULL)`,
      )
      .run(now(), pass.id, pass.id).changes > 0
  );
}

/** --full's cut-off for what its pass covers: what was fetched before the pass opened is fetched again. */
export function fullSince(pass: Pass, what: 'transcripts' | 'companies'): string | undefined {
  if (!pass.full) return undefined;
  const covered = what === 'transcripts' ? pass.scope.transcripts : pass.scope.lists.includes('companies');
  return covered ? pass.openedAt : undefined;
}

/** The open pass's walk of `list` under way, if any (a write stored meanwhile is marked seen by it). */
export function walkUnderWay(db: Db, list: SyncPhase): number | undefined {
  return (
    db
      .prepare<{ walk: number }>(
        `SELECT l.walk FROM pass_lists l JOIN passes p ON p.id = l.pass
         WHERE p.closed_at IS NULL AND l.list = ? AND l.walk IS NOT NULL AND l.completed_at IS NULL`,
      )
      .get(list)?.walk ?? undefined
  );
}
