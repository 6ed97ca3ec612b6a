// mtg mirror reset: delete this profile's mirror (the next `mtg sync` starts over).

import { existsSync, statSync, unlinkSync } from 'node:fs';
import { ExitCode, MtgError, UsageError } from '../../api/errors.js';
import { defineRun } from '../../cli/spec.js';
import { openDb } from '../../mirror/driver.js';
import { lockHolder } from '../../mirror/lock.js';
import { checkDataDir, mirrorFiles, mirrorPathIn, notAMirror } from '../../mirror/open.js';
import * as spec from './spec.js';

export const run = defineRun(spec.reset, async (ctx, _args, opts) => {
  const { profile, dataDir: dir } = await ctx.mirrorTarget({ readonly: true, anyBaseUrl: true });
  checkDataDir(dir);
  const path = mirrorPathIn(dir, profile);
  if (!existsSync(path)) {
    ctx.progress.note(`No mirror for profile ${profile} (${path}): nothing to delete.`);
    return ExitCode.ok;
  }
  if (!statSync(path).isFile()) {
    throw new UsageError(`${path} is not a file, so not an mtg mirror: left as it is`);
  }
  // Only what mtg recognises as its mirror is deleted: MTG_DATA_DIR may point at another
  // program's files.
  const why = notAMirror(path);
  if (why !== undefined && opts.force !== true) {
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
  ctx.progress.note(`Deleted the mirror of profile ${profile} (${path}).`);
  return ExitCode.ok;
});
