// Replacing a file so that a reader (or a crash) sees the old content or the new, never a part:
// the one way mtg writes a file that already has readers (-o FILE, export files and manifest,
// --checkpoint, the config file). A temp file in the target's own folder (same file system, so the
// rename is atomic), created with O_EXCL (never through a link planted under its name), written,
// fsync'd, renamed over the target; on any failure, and on abort, the temp file is removed and the
// target stays as it was. A temp file still open when the process exits anyway (a second Ctrl-C)
// is removed by removeUnfinishedTemps(), which the entry runs on exit (src/cli/exit-hooks.ts).
//
// Imports nothing of mtg's: output, export, config and the mirror may all use it. Only node:fs and
// node:path, which every command loads already (the exit hook loads this module at start-up).
import {
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { type FileHandle, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicFileOptions {
  /** The mode of a new file (the umask applies): 0o644 for output, 0o600 for keys and checkpoints. */
  mode: number;
  /** The new file takes the mode of the file it replaces (an -o target someone made 0600). */
  keepMode?: boolean;
  /** The new file gets exactly `mode`, whatever the umask (export's files: 0600). */
  exactMode?: boolean;
  /**
   * fsync the file before the rename (default true). Off only for export's files: one fsync per
   * file made a 1,000-meeting export 8x slower (1.1 s -> 9.3 s), and export does without today.
   */
  fsync?: boolean;
  /** Also fsync the folder after the rename, so that the rename itself survives a crash. */
  syncFolder?: boolean;
  /** How the temp file's name starts (default `.<target's name>.`); export sweeps its own by it. */
  tempPrefix?: string;
}

/** An open temp file that replaces `target` on commit(). */
export interface AtomicFile {
  /** The temp file, open for writing (at any position). */
  readonly handle: FileHandle;
  readonly tempPath: string;
  /** Mode, fsync, close, rename over the target (then fsync the folder when asked). On failure:
   * as abort(), then the error is thrown. */
  commit(): Promise<void>;
  /** Closes and removes the temp file; the target stays as it was. Never throws; repeatable. */
  abort(): Promise<void>;
}

// Temp files not yet renamed or removed: path -> descriptor (-1 once closed, as the number may be
// reused). Process-wide on purpose: it is what the exit hook cleans, whichever run opened them.
const unfinished = new Map<string, number>();

/** Synchronously removes every temp file not yet committed or aborted (the process is exiting). */
export function removeUnfinishedTemps(): void {
  for (const [path, fd] of unfinished) {
    try {
      if (fd >= 0) closeSync(fd);
    } catch {}
    try {
      unlinkSync(path);
    } catch {}
  }
  unfinished.clear();
}

// A new temp file: O_EXCL fails on anything already there (a planted link included), and
// O_NOFOLLOW says so again where it exists.
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

function tempPathFor(target: string, prefix: string | undefined): string {
  // Unique by pid and 48 random bits; O_EXCL makes a clash (or a planted file) fail, not follow.
  const random = Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(12, '0');
  return join(dirname(target), `${prefix ?? `.${basename(target)}.`}${process.pid}.${random}.tmp`);
}

/**
 * Opens a temp file next to `target` for a caller that writes in steps (an output larger than
 * memory): write through `handle`, then commit() or abort().
 */
export async function openAtomicFile(target: string, options: AtomicFileOptions): Promise<AtomicFile> {
  const tempPath = tempPathFor(target, options.tempPrefix);
  const handle = await open(tempPath, TEMP_FLAGS, options.mode);
  unfinished.set(tempPath, handle.fd);
  let state: 'open' | 'committing' | 'done' = 'open';

  // The temp stays listed until it is gone (unlinked or renamed): a process that exits meanwhile
  // (a second Ctrl-C during an abort) still removes it.
  const discard = async (): Promise<void> => {
    state = 'done';
    await handle.close().catch(() => {});
    unfinished.set(tempPath, -1);
    await unlink(tempPath).catch(() => {});
    unfinished.delete(tempPath);
  };

  return {
    handle,
    tempPath,
    async commit() {
      if (state !== 'open') throw new Error(`${tempPath}: committed or aborted already`);
      state = 'committing';
      try {
        if (options.keepMode) {
          const old = await stat(target).catch(() => undefined);
          if (old) await handle.chmod(old.mode & 0o7777);
        }
        if (options.fsync !== false) await handle.sync();
        await handle.close();
        unfinished.set(tempPath, -1);
        await rename(tempPath, target);
        unfinished.delete(tempPath);
      } catch (err) {
        await discard();
        throw err;
      }
      state = 'done';
      if (options.syncFolder) await syncFolder(dirname(target));
    },
    async abort() {
      if (state !== 'open') return;
      await discard();
    },
  };
}

/** The whole content at once: `target` holds either its old content or all of `data`. */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicFileOptions,
): Promise<void> {
  const file = await openAtomicFile(target, options);
  try {
    await file.handle.writeFile(data);
  } catch (err) {
    await file.abort();
    throw err;
  }
  await file.commit();
}

/**
 * writeFileAtomic for synchronous callers (the export writer). Nothing else runs between the open
 * and the rename or removal, so no exit hook can find its temp file: it is not listed.
 */
export function writeFileAtomicSync(
  target: string,
  data: string | Uint8Array,
  options: AtomicFileOptions,
): void {
  const tempPath = tempPathFor(target, options.tempPrefix);
  const fd = openSync(tempPath, TEMP_FLAGS, options.mode);
  let open = true;
  try {
    if (options.exactMode) fchmodSync(fd, options.mode);
    writeFileSync(fd, data);
    if (options.keepMode) {
      const old = statSync(target, { throwIfNoEntry: false });
      if (old) fchmodSync(fd, old.mode & 0o7777);
    }
    if (options.fsync !== false) fsyncSync(fd);
    open = false;
    closeSync(fd);
    renameSync(tempPath, target);
  } catch (err) {
    if (open) {
      try {
        closeSync(fd);
      } catch {}
    }
    try {
      unlinkSync(tempPath);
    } catch {}
    throw err;
  }
  if (options.syncFolder) {
    try {
      const dir = openSync(dirname(target), 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    } catch {}
  }
}

// Makes the rename itself durable; not possible everywhere (Windows), so best effort.
export async function syncFolder(dir: string): Promise<void> {
  try {
    const d = await open(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {}
}
