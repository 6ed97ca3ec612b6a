// The single-sync lock: a row in `meta` (key sync_lock) naming the PID that holds it, taken and
// released in IMMEDIATE transactions, so two processes can never both take it. A lock whose process
// is gone (a sync killed with SIGKILL) is taken over. Reads never look at it (WAL: they are never
// blocked by a sync).

import { ExitCode, MtgError } from '../shared/errors.js';
import { isAlive } from '../shared/process-alive.js';
import type { Db } from './driver.js';
import { readMeta, writeMeta } from './meta.js';

const KEY = 'sync_lock';

export interface LockHolder {
  pid: number;
  startedAt: string;
}

export class SyncLockedError extends MtgError {
  constructor(
    readonly holder: LockHolder,
    profile: string,
  ) {
    super(
      `A sync of profile ${profile} is already running (PID ${holder.pid}, since ${holder.startedAt}); wait for it or stop it`,
      ExitCode.api,
    );
  }
}

/** The live holder of the lock, if any (a dead one's lock counts as free). */
export function lockHolder(db: Db): LockHolder | undefined {
  const value = readMeta(db, KEY);
  if (value === undefined) return undefined;
  let holder: LockHolder;
  try {
    holder = JSON.parse(value) as LockHolder;
  } catch {
    return undefined;
  }
  return holder.pid === process.pid || isAlive(holder.pid) ? holder : undefined;
}

/** Take the lock for this process, or throw SyncLockedError naming the holder. Returns the release. */
export function acquireSyncLock(db: Db, profile: string): () => void {
  db.transaction(() => {
    const holder = lockHolder(db);
    if (holder && holder.pid !== process.pid) throw new SyncLockedError(holder, profile);
    writeMeta(db, KEY, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }));
  });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    db.transaction(() => {
      const value = readMeta(db, KEY);
      if (value !== undefined && (JSON.parse(value) as LockHolder).pid === process.pid) {
        db.prepare('DELETE FROM meta WHERE key = ?').run(KEY);
      }
    });
  };
}
