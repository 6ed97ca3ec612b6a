// SQLite failures while writing the mirror, as one line people can act on. The mirror stays as it
// was after its last committed transaction, whatever the failure.

import { ExitCode, MtgError, UsageError } from '../shared/errors.js';
import { sqliteErrorCode } from './driver.js';

export function mirrorWriteError(path: string, err: unknown): unknown {
  if (err instanceof MtgError) return err;
  const code = sqliteErrorCode(err);
  if (code === undefined) return err;
  if (code === 'SQLITE_FULL') {
    return new MtgError(
      `Cannot write the mirror ${path}: the disk is full. It keeps what was committed; free some space and sync again.`,
      ExitCode.api,
    );
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM') {
    return new UsageError(
      `Cannot write the mirror ${path}: it or its folder is read-only. Set MTG_DATA_DIR to a folder mtg may write.`,
    );
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new UsageError(
      `The mirror ${path} is corrupt; delete it with \`mtg mirror reset --force\` and sync again`,
    );
  }
  if (code.startsWith('SQLITE_BUSY')) {
    return new MtgError(
      `The mirror ${path} is busy (another process holds a write lock); try again`,
      ExitCode.api,
    );
  }
  return new MtgError(`The mirror ${path} failed: ${(err as Error).message}`, ExitCode.api);
}

/** No mirror file for the profile (a read that must not create one). */
export class NoMirrorFileError extends UsageError {
  constructor(readonly profile: string) {
    super(`No mirror for profile ${profile}: run \`mtg sync\``);
  }
}

/** A mirror file with no schema yet (a first sync that has not committed it): no mirror either. */
export class EmptyMirrorError extends UsageError {
  constructor(readonly path: string) {
    super(`The mirror ${path} is empty: run \`mtg sync\``);
  }
}
