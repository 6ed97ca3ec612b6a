// Where an output path really leads, and whether mtg can write there. Used twice: by the framework
// before a command sends anything (a bad -o/--checkpoint is exit 2 with nothing sent, so a write is
// never applied and then lost on its output file), and by the sink to choose atomic or in-place.
import { constants } from 'node:fs';
import { access, lstat, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ExitCode, MtgError, UsageError } from '../shared/errors.js';

export type Destination =
  /** The process's own stdout (`-`, `/dev/stdout`, `/dev/fd/1`): written to fd 1, never reopened. */
  | { kind: 'stdout' }
  /** A regular file (or none yet) at `path`, links resolved: replaced atomically. */
  | { kind: 'file'; path: string; exists: boolean; dev?: number; ino?: number }
  /** A device, FIFO, terminal or socket: written in place, never replaced. */
  | { kind: 'special'; path: string; dev: number; ino: number };

// A link naming one of our own descriptors; fd 1 is stdout (its open file, with its O_APPEND).
const OWN_FD = new RegExp(`^/(?:dev/fd|proc/self/fd|proc/thread-self/fd|proc/${process.pid}/fd)/(\\d+)$`);

const MAX_LINKS = 40; // as the kernel's ELOOP limit

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/**
 * Follows links (each hop, so a dangling link leads to the file it would create) and says what is
 * at the end. `what` names the option in messages ("-o", "--checkpoint"). Throws UsageError for a
 * destination that cannot be written: missing or read-only folder, a folder, an empty name.
 */
export async function resolveDestination(path: string, what: string): Promise<Destination> {
  if (path === '') throw new UsageError(`${what} needs a file name (or - for stdout)`);
  if (path === '-' || path === '/dev/stdout') return { kind: 'stdout' };
  let current = resolve(path);
  for (let hop = 0; ; hop++) {
    if (hop > MAX_LINKS) throw new UsageError(`${what} ${path}: too many symbolic links`);
    const fd = OWN_FD.exec(current);
    if (fd?.[1] === '1') return { kind: 'stdout' };
    let info: Awaited<ReturnType<typeof lstat>>;
    try {
      info = await lstat(current);
    } catch (err) {
      if (errno(err) === 'ENOENT')
        return { kind: 'file', path: await creatable(current, path, what), exists: false };
      throw destinationError(err, path, what);
    }
    if (info.isSymbolicLink()) {
      await mayFollow(current, info, path, what);
      current = resolve(dirname(current), await readlink(current));
      continue;
    }
    if (info.isDirectory()) throw new UsageError(`${what} ${path}: is a folder; name a file in it`);
    if (info.isFile()) {
      await writableFolder(dirname(current), path, what);
      return { kind: 'file', path: current, exists: true, dev: info.dev, ino: info.ino };
    }
    try {
      await access(current, constants.W_OK);
    } catch (err) {
      throw destinationError(err, path, what);
    }
    return { kind: 'special', path: current, dev: info.dev, ino: info.ino };
  }
}

/**
 * The kernel's protected_symlinks rule, applied here because mtg resolves links itself (and then
 * renames over the target): in a sticky world-writable folder (/tmp), a link is followed only when
 * it is ours or the folder owner's. Otherwise anyone could plant `/tmp/out.csv -> ~/.bashrc` and
 * have `-o /tmp/out.csv` replace the victim's file.
 */
async function mayFollow(link: string, info: { uid: number }, shown: string, what: string): Promise<void> {
  const me = process.geteuid?.();
  if (me === undefined || info.uid === me) return; // no uids (Windows), or our own link
  const folder = await stat(dirname(link));
  const STICKY_AND_WORLD_WRITABLE = 0o1002;
  if ((folder.mode & STICKY_AND_WORLD_WRITABLE) !== STICKY_AND_WORLD_WRITABLE || folder.uid === info.uid)
    return;
  throw new UsageError(
    `${what} ${shown}: ${link} is a symbolic link in a shared folder (sticky, world-writable) owned by someone else (uid ${info.uid}): not followed`,
  );
}

/** A file that does not exist yet: its folder must exist and take new files. Returns its real path. */
async function creatable(file: string, shown: string, what: string): Promise<string> {
  const folder = dirname(file);
  let real: string;
  try {
    real = await realpath(folder);
    if (!(await stat(real)).isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR' });
  } catch (err) {
    if (errno(err) === 'ENOENT')
      throw new UsageError(`${what} ${shown}: the folder ${folder} does not exist`);
    if (errno(err) === 'ENOTDIR') throw new UsageError(`${what} ${shown}: ${folder} is not a folder`);
    throw destinationError(err, shown, what);
  }
  await writableFolder(real, shown, what);
  return join(real, basename(file));
}

/** Atomic replace creates a temp file next to the target, so its folder must take new files. */
async function writableFolder(folder: string, shown: string, what: string): Promise<void> {
  try {
    await access(folder, constants.W_OK | constants.X_OK);
  } catch (err) {
    const why = errno(err) === 'EROFS' ? 'is on a read-only file system' : 'is not writable';
    throw new UsageError(`${what} ${shown}: the folder ${folder} ${why}`);
  }
}

function destinationError(err: unknown, shown: string, what: string): UsageError {
  const reason: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'read-only file system',
    ENOTDIR: 'a part of the path is not a folder',
    ELOOP: 'too many symbolic links',
    ENAMETOOLONG: 'the name is too long',
  };
  const code = errno(err);
  return new UsageError(`${what} ${shown}: ${(code && reason[code]) || (err as Error).message}`);
}

/**
 * Where a checkpointed export keeps its rows until it completes: beside FILE (after links, so the
 * final rename stays on one file system), named from it. Never FILE itself, so that FILE is never
 * a truncated result.
 */
export function partialPathFor(target: string): string {
  return `${target}.mtg-partial`;
}

/** Same file for two destinations, after links (and, for existing files, hard links). */
function sameFile(a: Destination, b: Destination): boolean {
  if (a.kind === 'stdout' || b.kind === 'stdout') return a.kind === b.kind;
  if (a.ino !== undefined && b.ino !== undefined) return a.dev === b.dev && a.ino === b.ino;
  return a.path === b.path;
}

export interface DestinationOptions {
  output?: string;
  checkpoint?: string;
  /** The command is a list export (CommandNode.list): the only kind that takes --checkpoint. */
  list: boolean;
}

/**
 * Every output destination of a command, checked before its first request (src/cli/main.ts calls
 * this for every command): exit 2 with one plain line rather than a write applied and then lost.
 */
export async function checkDestinations(opts: DestinationOptions): Promise<void> {
  const output = opts.output === undefined ? undefined : await resolveDestination(opts.output, '-o');
  if (opts.checkpoint === undefined) return;
  if (!opts.list)
    throw new UsageError('--checkpoint applies to list commands only (a list export to -o FILE)');
  if (output === undefined || output.kind === 'stdout') {
    throw new UsageError('--checkpoint needs -o/--output FILE: a resumed export appends to that file');
  }
  if (output.kind === 'special') {
    throw new UsageError(
      `--checkpoint needs -o to be a regular file; ${opts.output} is a device, pipe or terminal`,
    );
  }
  const checkpoint = await resolveDestination(opts.checkpoint, '--checkpoint');
  if (checkpoint.kind !== 'file') throw new UsageError(`--checkpoint ${opts.checkpoint}: not a regular file`);
  if (sameFile(output, checkpoint)) {
    throw new UsageError('--checkpoint and -o name the same file; give the checkpoint its own file');
  }
  if (checkpoint.path === partialPathFor(output.path)) {
    throw new UsageError(
      `--checkpoint ${opts.checkpoint}: that is where the export keeps its rows until it completes; give the checkpoint its own file`,
    );
  }
}

/** A failed write to an output file, in plain words (exit 1: the data was fetched, the disk failed). */
export function writeFailure(err: unknown, path: string): unknown {
  // Only the file system's errors (they carry a syscall); anything else is passed on as it is.
  if (err instanceof MtgError || typeof (err as NodeJS.ErrnoException)?.syscall !== 'string') return err;
  const words: Record<string, string> = {
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    EFBIG: 'the file is too large',
    EIO: 'input/output error',
    EPIPE: 'the reader closed the pipe',
    EROFS: 'read-only file system',
    EACCES: 'permission denied',
  };
  const code = errno(err);
  const why = (code && words[code]) || (err as Error).message;
  return new MtgError(`Could not write ${path}: ${why}`, ExitCode.api);
}
