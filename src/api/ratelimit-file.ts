// The store mtg processes of one user share their rate-limit reports through (ratelimit-shared.ts;
// docs/rate-limits.md, "Processes on one machine"): a folder per API origin and key, named by a hash
// of both (never the key), in the data folder, and in it one file per limiter, written whole and
// atomically (temp + rename), so that writers never lose each other's lines. A reader trusts a file
// only when it is a plain file of this user's, not readable by others, small, and valid; anything
// else is skipped. A failure anywhere loses the sharing only, never a request.

import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../shared/atomic-file.js';
import type { Clock } from '../shared/clock.js';
import { isAlive } from '../shared/process-alive.js';
import {
  refilledAt,
  SHARED_HOLD_S,
  SHARED_LOG_MAX,
  type SharedLog,
  type SharedReports,
} from './ratelimit-shared.js';

/** A log of SHARED_LOG_MAX requests, each under ~150 bytes as JSON. */
export const SHARED_FILE_MAX_BYTES = 256 * 1024;
/** Running commands' logs read at most per look: processes of one user on one key at once. */
export const SHARED_FILES_MAX = 64;
/** Ended commands' logs read at most per look, the newest: their answers say what the older ones' did (the rest go). */
const ENDED_READ_MAX = 8;
/** The log names this process made: another log under this process's ID is an earlier process's (a reused PID). */
const madeHere = new Set<string>();
/** A log whose requests are all answered and that was written longer ago than this is removed (no window of the spec lasts more than a minute). */
const FORGOTTEN_MS = 3_600_000;

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const time = z.number().finite().nonnegative();
const requestSchema = z.strictObject({
  seq: count,
  sentAt: time,
  doneAt: time.optional(),
  limit: count.optional(),
  remaining: count.optional(),
  reset: z.number().finite().nonnegative().optional(),
  retryAfter: z.number().finite().nonnegative().optional(),
});
const fileSchema = z.strictObject({
  version: z.literal(1),
  pid: z.number().int().positive(),
  writtenAt: time,
  requests: z.array(requestSchema).max(SHARED_LOG_MAX),
});

export interface FileReportsOptions {
  dataDir: string;
  /** The API's origin and key: the folder's name is a hash of both. */
  origin: string;
  apiKey: string;
  clock: Clock;
  /** Told once, the first time the sharing fails (--verbose). */
  onTrouble?: (message: string) => void;
}

const FILE_MODE = { mode: 0o600, exactMode: true, fsync: false };
const LOCK_NAME = '.lock';
/**
 * A lock whose time is further than this from now, either way, was left by a process that ended
 * while deciding (a decision takes milliseconds), or dates from before a clock step: it is broken.
 */
const STALE_LOCK_MS = 1000;
/** Deciding waits for others' turns at most this long (ms) in a row; then it decides without the lock. */
const LOCK_WAIT_MAX_MS = 5000;

/**
 * The right to decide (O_EXCL: one holder; never through a link), the lock holding `token`. A stale
 * lock is broken by renaming it aside (one of several breakers wins) and checking the one moved is
 * the one judged stale: a fresh lock moved by mistake goes back where it was.
 */
function takeLock(path: string, token: string, now: number): boolean {
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(
        path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
      try {
        writeSync(fd, token);
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (!stat) continue;
      if (Math.abs(now - stat.mtimeMs) <= STALE_LOCK_MS) return false;
      const aside = `${path}.${token}.broken`;
      try {
        renameSync(path, aside);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // another broke it first
        throw e;
      }
      const moved = lstatSync(aside);
      if (moved.ino !== stat.ino) {
        try {
          linkSync(aside, path); // not the stale one: put it back, unless a new one is there already
        } catch {}
      }
      // A planted folder under the lock's name goes too (renamed aside by us, links not followed).
      rmSync(aside, { recursive: true, force: true });
    }
  }
  return false;
}

/** Gives the lock back if it is still ours (one broken as stale and taken by another stays theirs). */
function releaseLock(path: string, token: string): void {
  try {
    if (readFileSync(path, 'utf8') === token) unlinkSync(path);
  } catch {}
}

/** The folder the limiters of one API origin and key share, under `dataDir` (its name: a hash, never the key). */
export function sharedFolder(dataDir: string, origin: string, apiKey: string): string {
  const hash = createHash('sha256').update(`${origin}\n${apiKey}`).digest('hex').slice(0, 32);
  return join(dataDir, 'ratelimit', hash);
}

/** The shared store on disk; undefined where it cannot be trusted (Windows: no owner or mode to check). */
export function fileReports(options: FileReportsOptions): SharedReports | undefined {
  const uid = process.getuid?.();
  if (uid === undefined || constants.O_NOFOLLOW === undefined) return undefined;
  const folder = sharedFolder(options.dataDir, options.origin, options.apiKey);
  const name = `${process.pid}-${randomBytes(6).toString('hex')}.json`;
  madeHere.add(name);
  let troubled = false;
  const trouble = (err: unknown) => {
    if (troubled) return;
    troubled = true;
    options.onTrouble?.(`rate-limit sharing off for this command: ${(err as Error).message}`);
  };
  const owner = uid;
  let ready = false;
  let locked = false;
  const token = `${process.pid}-${randomBytes(8).toString('hex')}`;
  /** Since when (the limiter's clock) the lock has been another's at every look, or undefined. */
  let busySince: number | undefined;
  /** Another limiter's log was seen at the last look: deciding then takes the lock, and the log is written first. */
  let others = false;
  let shown = false;
  const emptyLog = () => ({ version: 1, pid: process.pid, writtenAt: options.clock.now(), requests: [] });
  const cache = new Map<string, Cached>();
  return {
    read() {
      if (troubled) return [];
      let names: string[];
      try {
        // Read (and tidy) nothing through a link planted in place of either folder.
        const ours = [join(options.dataDir, 'ratelimit'), folder].map((dir) => realFolderOfOwner(dir, owner));
        if (ours.includes(undefined)) return [];
        if (ours.includes(false)) throw new Error(`${folder} is not a private folder of this user's`);
        names = readdirSync(folder);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') trouble(err);
        return [];
      }
      const logs = readLogs(folder, names, name, uid, options.clock.now(), cache);
      // An ended command's log is read, but nobody decides beside it.
      others = logs.some((log) => log.alive);
      if (!others) busySince = undefined; // alone: a lock seen later is a new turn's
      return logs;
    },
    write(requests) {
      // Before the right to decide goes back: the next to decide reads this log as it is now.
      try {
        if (!troubled) {
          const log = { version: 1, pid: process.pid, writtenAt: options.clock.now(), requests };
          writeLog(JSON.stringify(log));
        }
      } catch (err) {
        trouble(err);
      }
      release();
    },
    claim() {
      if (troubled) return true;
      try {
        // A newcomer beside others first shows itself (an empty log) and looks again a margin later:
        // one that was alone decides without the lock, sees it at its next look, and then takes it.
        if (!shown) {
          shown = true;
          this.read();
          if (!others) return true;
          writeLog(JSON.stringify(emptyLog()));
          return false;
        }
        // Alone at the last look: nobody to decide beside.
        if (!others) return true;
        prepare();
        // The file system's time, as the lock's mtime is (not the limiter's clock).
        locked = takeLock(join(folder, LOCK_NAME), token, Date.now());
      } catch (err) {
        trouble(err);
        return true;
      }
      // Others' turns are milliseconds each: a lock busy at every look for seconds is no turn (its
      // file's time and this clock disagree): decide without it, the others' logs read all the same.
      const now = options.clock.now();
      busySince = locked ? undefined : (busySince ?? now);
      if (busySince !== undefined && now - busySince > LOCK_WAIT_MAX_MS) {
        busySince = undefined;
        return true;
      }
      return locked;
    },
    release,
  };

  function release(): void {
    if (!locked) return;
    locked = false;
    releaseLock(join(folder, LOCK_NAME), token);
  }

  /** This limiter's log, written whole; a folder another process's sweep removed meanwhile is made again once. */
  function writeLog(text: string): void {
    prepare();
    try {
      writeFileAtomicSync(join(folder, name), text, FILE_MODE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      ready = false;
      prepare();
      writeFileAtomicSync(join(folder, name), text, FILE_MODE);
    }
  }

  /** Once: the folders made and checked, the logs of ended processes swept. */
  function prepare(): void {
    if (ready) return;
    sweep(join(options.dataDir, 'ratelimit'), owner);
    if (!makeFolder(folder, options.dataDir, owner))
      throw new Error(`${folder} is not a private folder of this user's`);
    ready = true;
  }
}

/** `ratelimit/` and the key's folder in it, 0700, this user's, and no link (false: they are not). */
function makeFolder(folder: string, dataDir: string, uid: number): boolean {
  // The data folder is the user's (a link to it is their choice); in it, nothing is made through a link.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  for (const dir of [join(dataDir, 'ratelimit'), folder]) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (!realFolderOfOwner(dir, uid)) return false;
    if ((lstatSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
  }
  return true;
}

/** A real folder (not a link to one) of this user's: undefined when there is none. */
function realFolderOfOwner(dir: string, uid: number): boolean | undefined {
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  return stat === undefined ? undefined : stat.isDirectory() && stat.uid === uid;
}

/** A log as read, with its writer's process, when it was written, and whether that process still runs. */
type Log = SharedLog & { pid: number; writtenAt: number; alive?: boolean };
/** In `ratelimit/`: the last key folder the previous sweep looked at (the next starts after it). */
const SWEEP_CURSOR = '.swept-last';
/**
 * Once per process: the logs of processes that have ended, in every key's folder (keys and origins
 * change, and their folders would pile up), and the folders left empty. Bounded: SHARED_FILES_MAX
 * folders, SHARED_FILES_MAX logs each, in name order from where the previous sweep stopped, so that
 * past SHARED_FILES_MAX folders every one is reached over runs (the first ones in readdir order, kept
 * by a live log or a left lock, were the only ones ever looked at). A log's name starts with its
 * writer's process ID.
 */
function sweep(root: string, uid: number, now = Date.now()): void {
  try {
    const stat = lstatSync(root);
    if (!stat.isDirectory()) return;
    const dirs = readdirSync(root)
      .filter((d) => !d.startsWith('.'))
      .sort();
    const many = dirs.length > SHARED_FILES_MAX;
    // The cursor is trusted only in a private folder of this user's; any name is just a place to start.
    const ours = stat.uid === uid && (stat.mode & 0o077) === 0;
    const cursor = join(root, SWEEP_CURSOR);
    const after = many && ours ? readCursor(cursor) : undefined;
    const start = Math.max(0, after === undefined ? 0 : dirs.findIndex((d) => d > after));
    const turn = [...dirs.slice(start), ...dirs.slice(0, start)].slice(0, SHARED_FILES_MAX);
    for (const dir of turn) sweepFolder(join(root, dir), uid, now);
    if (many && ours) writeFileAtomicSync(cursor, turn.at(-1)!, FILE_MODE);
  } catch {
    // Only tidiness is lost.
  }
}

/** The name the last sweep stopped at, or undefined (none, or not a plain file). */
function readCursor(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(256);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** One key's folder: the logs (and temp files) of ended writers removed, the folder too when left empty. */
function sweepFolder(folder: string, uid: number, now: number): void {
  try {
    if (!lstatSync(folder).isDirectory()) return;
    for (const file of readdirSync(folder).slice(0, SHARED_FILES_MAX)) {
      // A log (<pid>-<hex>.json), or the temp file of a writer killed mid-write (.<log>.<pid>.<hex>.tmp).
      const pid = /^\.?(\d+)-[0-9a-f]+\.json(?:\.\d+\.[0-9a-f]+\.tmp)?$/.exec(file)?.[1];
      const path = join(folder, file);
      const stat = pid ? lstatSync(path, { throwIfNoEntry: false }) : undefined;
      // An ended command's log holds the next ones a while after its last write (fresh()), no longer;
      // a folder planted under a log's name is no log (and no reason to stop the sweep).
      if (!stat || stat.isDirectory() || stat.uid !== uid || now - stat.mtimeMs <= SHARED_HOLD_S * 1000)
        continue;
      if (!(file.startsWith('.') ? isAlive(Number(pid)) : writerRuns(Number(pid), file))) unlinkSync(path);
    }
    if (readdirSync(folder).length === 0) rmdirSync(folder);
  } catch {
    // This folder's tidiness only: the next ones are still looked at.
  }
}

/**
 * A log read before, as its file was then. Trusted only once the file had been still for
 * SETTLED_MS when read: a rewrite within a file system's time granularity (1 s on ext3 and HFS+,
 * 2 s on FAT, some network mounts) can keep its mtime and ctime, and a same-sized log renamed in
 * may take the freed inode (ext4 hands it to the next temp file); any change after that time
 * dates the file later, whatever the granularity.
 */
type Cached = { ino: number; mtimeMs: number; ctimeMs: number; size: number; settled: boolean; log?: Log };
/** How long a file must have been still for its read to be remembered (FAT's mtimes: 2 s). */
const SETTLED_MS = 3000;

/** A log's file name: its writer's process ID, then a random part. */
const LOG_NAME = /^(\d+)-[0-9a-f]+\.json$/;

/**
 * The logs of the folder's files `names` but `own`, `cache` kept to those files: running commands'
 * first (SHARED_FILES_MAX at most), so that ended ones never hide a running one; then ended ones,
 * newest first, until ENDED_READ_MAX that still hold something (one that holds nothing goes as it is
 * read: corrupt, its requests unanswered, its windows refilled), the older ones going unread.
 */
export function readLogs(
  folder: string,
  names: string[],
  own: string,
  uid: number,
  now: number,
  cache: Map<string, Cached>,
) {
  const running: string[] = [];
  const ended: { file: string; mtimeMs: number }[] = [];
  for (const file of names) {
    const pid = LOG_NAME.exec(file)?.[1];
    if (file === own || pid === undefined) continue;
    if (writerRuns(Number(pid), file)) running.push(file);
    else {
      const mtimeMs = lstatSync(join(folder, file), { throwIfNoEntry: false })?.mtimeMs ?? 0;
      // A time ahead of now (a clock stepped back) says nothing of when it was written: the oldest.
      ended.push({ file, mtimeMs: mtimeMs > Date.now() ? 0 : mtimeMs });
    }
  }
  const read = (file: string, runs: boolean) =>
    readLog(join(folder, file), uid, now, runs, cache.get(file), (entry) => cache.set(file, entry));
  const logs: Log[] = [];
  for (const file of running) {
    if (logs.length >= SHARED_FILES_MAX) break;
    const log = read(file, true);
    if (log) logs.push(log);
  }
  let kept = 0;
  let looked = 0;
  for (const { file } of ended.sort((a, b) => b.mtimeMs - a.mtimeMs)) {
    const log = kept < ENDED_READ_MAX && looked++ < SHARED_FILES_MAX ? read(file, false) : undefined;
    if (log) {
      logs.push(log);
      kept++;
    } else removeLog(join(folder, file), uid);
  }
  for (const file of cache.keys()) if (!names.includes(file)) cache.delete(file);
  return logs;
}

/** Whether the process that wrote log `file` (its ID `pid`) still runs: one under this process's ID is this one's only if made here. */
function writerRuns(pid: number, file: string): boolean {
  return pid === process.pid ? madeHere.has(file) : isAlive(pid);
}

/** An ended command's log of this user's, removed (one gone meanwhile is no matter). */
function removeLog(path: string, uid: number): void {
  try {
    if (lstatSync(path).uid === uid) unlinkSync(path);
  } catch {}
}

/** Whether a file read before (`cached`) is the one `seen` now: the same, and still long enough when read that no rewrite can share its times. */
export function unchangedSince(
  cached: Omit<Cached, 'log'>,
  seen: { ino: number; mtimeMs: number; ctimeMs: number; size: number },
): boolean {
  const same = cached.ino === seen.ino && cached.size === seen.size;
  return cached.settled && same && cached.mtimeMs === seen.mtimeMs && cached.ctimeMs === seen.ctimeMs;
}

/**
 * One limiter's log, or undefined when it is not to be trusted (a link, another user's, readable by
 * others, too large, invalid, written in the future) or its writer is gone (then it is removed).
 */
function readLog(
  path: string,
  uid: number,
  now: number,
  runs: boolean,
  cached: Cached | undefined,
  keep: (entry: Cached) => void,
): Log | undefined {
  let fd: number | undefined;
  try {
    const seen = lstatSync(path);
    if (!seen.isFile()) return undefined;
    if (cached && unchangedSince(cached, seen)) return fresh(path, cached.log, now, runs);
    // O_NOFOLLOW: a link planted under a log's name is refused, not followed.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
    const stat = fstatSync(fd);
    // The file system's time (Date.now()), as the file's times are, not the limiter's clock.
    const settled = Date.now() - Math.max(stat.mtimeMs, stat.ctimeMs) > SETTLED_MS;
    const entry: Cached = {
      ino: stat.ino,
      mtimeMs: stat.mtimeMs,
      ctimeMs: stat.ctimeMs,
      size: stat.size,
      settled,
    };
    keep(entry);
    if (!stat.isFile() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return undefined;
    if (stat.size > SHARED_FILE_MAX_BYTES) return undefined;
    const buffer = Buffer.alloc(stat.size);
    const read = readSync(fd, buffer, 0, stat.size, 0);
    const parsed = fileSchema.safeParse(JSON.parse(buffer.subarray(0, read).toString('utf8')));
    if (!parsed.success) return undefined;
    const { pid, writtenAt, requests } = parsed.data;
    // Its writer is the process its name says (running or ended is judged by the name).
    if (String(pid) !== LOG_NAME.exec(basename(path))?.[1]) return undefined;
    // From the future (a clock stepped back, or a forged file): it says nothing of now.
    if (writtenAt > now || requests.some((r) => r.sentAt > writtenAt || (r.doneAt ?? 0) > writtenAt))
      return undefined;
    entry.log = { writer: path, requests, pid, writtenAt };
    return fresh(path, entry.log, now, runs);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The log, while it says something: its writer runs and it is not long forgotten, or its writer has
 * ended and one of its answers names a window that has not refilled yet (the next command of a shell
 * loop or a cron job then waits for that refill instead of sending blind into it); its requests left
 * unanswered are over (an answer holds the next SHARED_HOLD_S at most: refilledAt). Else the file goes.
 */
function fresh(path: string, log: Log | undefined, now: number, runs: boolean): Log | undefined {
  if (!log) return undefined;
  if (runs) {
    const forgotten = now - log.writtenAt > FORGOTTEN_MS && log.requests.every((r) => r.doneAt !== undefined);
    if (!forgotten) return { ...log, alive: true };
  } else {
    const answered = log.requests.filter((r) => r.doneAt !== undefined);
    if (answered.some((r) => refilledAt(r) > now)) return { ...log, requests: answered, alive: false };
  }
  try {
    unlinkSync(path);
  } catch {}
  return undefined;
}
