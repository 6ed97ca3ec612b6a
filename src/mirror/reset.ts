// Deleting a profile's mirror (`mtg mirror reset`): only what mtg recognises as its mirror, and
// never while a sync of it runs.

import { existsSync, statSync, unlinkSync } from 'node:fs';
import { ExitCode, MtgError, UsageError } from '../shared/errors.js';
import { openDb } from './driver.js';
import { lockHolder } from './lock.js';
import { checkDataDir, mirrorFiles, mirrorPathIn, notAMirror } from './open.js';

export interface ResetOptions {
  profile: string;
  dataDir: string;
  /** Delete a file at the mirror's path even when it is not recognised as a mirror. */
  force?: boolean;
}

/** Deletes the mirror and the files SQLite keeps beside it; `deleted: false` when there was none. */
export function resetMirror({ profile, dataDir: dir, force }: ResetOptions): {
  path: string;
  deleted: boolean;
} {
  checkDataDir(dir);
  const path = mirrorPathIn(dir, profile);
  if (!existsSync(path)) {
    return { path, deleted: false };
  }
  if (!statSync(path).isFile()) {
    throw new UsageError(`${path} is not a file, so not an mtg mirror: left as it is`);
  }
  // Only what mtg recognises as its mirror is deleted: MTG_DATA_DIR may point at another
  // program's files.
  const why = notAMirror(path);
  if (why !== undefined && force !== true) {
    throw new UsageError(
      `${path} is not an mtg mirror (${why}): left as it is; move it away, or delete it with --force`,
    );
  }
  let holder: number | undefined;
  try {
    const db = openDb(path, { readonly: true });
    try {
      holder = lockHolder(db)?.pid;
    } finally {
      db.close();
    }
  } catch {
    // Not readable as a mirror (corrupt, foreign, an older schema): no sync can be using it.
  }
  if (holder !== undefined) {
    throw new MtgError(
      `A sync of profile ${profile} is running (PID ${holder}); stop it before resetting the mirror`,
      ExitCode.api,
    );
  }
  for (const file of mirrorFiles(path)) {
    try {
      unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new MtgError(`Cannot delete ${file}: ${(err as Error).message}`, ExitCode.api);
      }
    }
  }
  return { path, deleted: true };
}
