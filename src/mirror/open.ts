// Opening a profile's mirror: its path, the folder and file modes, WAL, migrations, and the checks
// that keep mtg from writing into what is not its mirror (another base URL, a corrupt or foreign
// file, a folder it may not write). Every refusal is a UsageError with a one-line reason, raised
// before anything in the file was changed.

import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { checkFolder, dataDir, profileFileName } from '../config/data-dir.js';
import { UsageError } from '../shared/errors.js';
import { type Db, openDb, sqliteErrorCode } from './driver.js';
import { EmptyMirrorError, NoMirrorFileError } from './errors.js';
import { readMeta, writeMeta } from './meta.js';
import { migrate, SCHEMA_VERSION, schemaVersion } from './schema.js';

export interface Mirror {
  readonly db: Db;
  readonly path: string;
  readonly profile: string;
  /** The base URL this mirror holds data of (undefined only in a mirror never synced). */
  readonly baseUrl: string | undefined;
  meta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  close(): void;
}

export interface OpenMirrorOptions {
  profile: string;
  /** The data folder (dataDir(env) from src/config/data-dir.ts). */
  dataDir: string;
  /**
   * Read-write: the base URL about to be synced; read-only: the base URL configured (flag, env or
   * profile), if any. Either way a mirror of another base URL is refused (exit 2 naming both), so
   * that no reader (offline reads, find, sql, changes, the export, `mtg mcp`) can pass one server's
   * data off as another's. Undefined for a read-only open: the mirror's own base URL is used.
   */
  baseUrl?: string;
  /** Open for reading only (offline reads, `mtg sql`): never creates, migrates or writes. */
  readonly?: boolean;
  /** Create the mirror when there is none (default: true unless readonly). */
  create?: boolean;
}

const SQLITE_HEADER = 'SQLite format 3\u0000';

/** `<data dir>/<profile>.db` */
export function mirrorPath(profile: string, env: NodeJS.ProcessEnv): string {
  return mirrorPathIn(dataDir(env), profile);
}

export function mirrorPathIn(dir: string, profile: string): string {
  return join(dir, `${profileFileName(profile)}.db`);
}

/** The database and the files SQLite keeps beside it. */
export function mirrorFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`, `${path}-journal`];
}

/**
 * "https://API.example.com:443/v1/" and "https://api.example.com/v1" are the same API: the URL
 * parser lowercases the host and drops a default port; trailing slashes go.
 */
export function normalizeBaseUrl(url: string): string {
  try {
    return new URL(url).href.replace(/\/+$/, '');
  } catch {
    return url.replace(/\/+$/, '');
  }
}

/**
 * A data folder that is a file: said as such by every mirror command. One that MTG_DATA_DIR names
 * was already checked, and named so, by dataDir(env).
 */
export function checkDataDir(dir: string): void {
  checkFolder(dir, `The data folder ${dir}`);
}

export function openMirror(options: OpenMirrorOptions): Mirror {
  checkDataDir(options.dataDir);
  const readonly = options.readonly ?? false;
  const create = options.create ?? !readonly;
  const path = mirrorPathIn(options.dataDir, options.profile);
  const size = fileSize(path);
  if (size === undefined) {
    if (!create) throw new NoMirrorFileError(options.profile);
    createFile(path);
  } else {
    checkHeader(path, size);
    if (!readonly) checkWritable(path);
  }

  let db: Db;
  try {
    db = openDb(path, { readonly });
  } catch (err) {
    throw openError(path, err);
  }
  try {
    inspect(db, path, readonly);
    if (!readonly) {
      db.pragma('journal_mode = WAL');
      // WAL with synchronous=NORMAL: a commit survives the process being killed (what resuming
      // relies on); only an OS crash or power loss may drop the latest commits, never consistency.
      // FULL would fsync every page of a sync (1,300 commits: 1.5 of 7.6 s for 100,000 items).
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrate(db);
      tightenMode(path);
    } else {
      db.pragma('query_only = ON');
      // A reader's page cache: 2 MB (SQLite's own default) rather than better-sqlite3's 16 MB. A
      // long-running reader (`mtg mcp`) would otherwise keep 16 MB of pages of every scan it made;
      // the OS caches the file anyway, and no memory-mapping (mmap_size stays 0: mapped pages
      // would count in the process's RSS).
      db.pragma('cache_size = -2000');
    }
    const get = (key: string) => readMeta(db, key);
    let baseUrl = get('base_url');
    if (readonly && options.baseUrl !== undefined && baseUrl !== undefined) {
      const wanted = normalizeBaseUrl(options.baseUrl);
      if (normalizeBaseUrl(baseUrl) !== wanted) {
        throw new UsageError(
          `The mirror of profile ${options.profile} holds ${baseUrl}, not the configured base URL ${wanted}: read it with --base-url ${baseUrl}, or run \`mtg mirror reset\` and \`mtg sync\` to mirror ${wanted}`,
        );
      }
    }
    if (!readonly) {
      const now = new Date().toISOString();
      const set = (key: string, value: string) => writeMeta(db, key, value);
      if (options.baseUrl !== undefined) {
        const wanted = normalizeBaseUrl(options.baseUrl);
        if (baseUrl !== undefined && baseUrl !== wanted && holdsNothing(db)) {
          // A first sync that failed (wrong URL, refused key) stored no data: nothing ties the
          // mirror to that URL, so it takes the new one instead of asking for a reset.
          db.transaction(() => {
            set('base_url', wanted);
            db.prepare(
              'UPDATE walks SET abandoned_at = ? WHERE completed_at IS NULL AND abandoned_at IS NULL',
            ).run(now);
            // The pass that began on the other URL goes no further: the next sync opens another.
            db.prepare('UPDATE passes SET closed_at = ? WHERE closed_at IS NULL').run(now);
          });
          baseUrl = wanted;
        }
        if (baseUrl !== undefined && baseUrl !== wanted) {
          throw new UsageError(
            `The mirror of profile ${options.profile} holds ${baseUrl}, not ${wanted}: run \`mtg mirror reset\` to start it over for the new base URL`,
          );
        }
        if (baseUrl === undefined) {
          db.transaction(() => {
            set('base_url', wanted);
            if (get('profile') === undefined) set('profile', options.profile);
            if (get('created_at') === undefined) set('created_at', now);
          });
          baseUrl = wanted;
        }
      }
    }
    return {
      db,
      path,
      profile: options.profile,
      baseUrl,
      meta: get,
      setMeta: (key, value) => writeMeta(db, key, value),
      close: () => db.close(),
    };
  } catch (err) {
    db.close();
    if (err instanceof OlderSchema) return upgradeThenRead(options, path, err.version);
    if (err instanceof UsageError) throw err;
    throw openError(path, err);
  }
}

/** A read-only open met a mirror of an older schema (upgraded by a read-write open). */
class OlderSchema extends Error {
  constructor(readonly version: number) {
    super(`older schema ${version}`);
  }
}

/**
 * Reads need no network, nor should an upgrade of mtg take a mirror away from them: a mirror of an
 * older schema is migrated (one transaction, no sync) by a read-write open, then read. Only a file
 * this user cannot write is refused, with what to do; any other failure of the upgrade (a lock held
 * too long, a damaged file) is reported as itself.
 */
function upgradeThenRead(options: OpenMirrorOptions, path: string, version: number): Mirror {
  try {
    checkWritable(path);
  } catch {
    throw new UsageError(
      `The mirror ${path} has an older schema (${version}) and cannot be upgraded here: run \`mtg sync\` as its owner`,
    );
  }
  openMirror({
    profile: options.profile,
    dataDir: options.dataDir,
    readonly: false,
    create: false,
  }).close();
  return openMirror(options);
}

/** No item, no transcript and no completed run: a mirror whose syncs never got any data. */
function holdsNothing(db: Db): boolean {
  const any = db
    .prepare<{ n: number }>(
      `SELECT EXISTS (SELECT 1 FROM meetings) + EXISTS (SELECT 1 FROM action_items) + EXISTS (SELECT 1 FROM people)
       + EXISTS (SELECT 1 FROM companies) + EXISTS (SELECT 1 FROM transcripts)
       + EXISTS (SELECT 1 FROM runs WHERE complete = 1) AS n`,
    )
    .get()!.n;
  return any === 0;
}

function fileSize(path: string): number | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile())
      throw new UsageError(`${path} is not a file: it cannot be the mirror (set MTG_DATA_DIR elsewhere)`);
    return st.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    // Not there (ENOTDIR: a part of the folder is a file): createFile() says why it cannot be made.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UsageError(
      `Cannot read the mirror ${path}: ${describeFsError(err)}. Set MTG_DATA_DIR to a folder mtg may write.`,
    );
  }
}

function createFile(path: string): void {
  const dir = dirname(path);
  try {
    // The folder is made private only when mtg creates it: an existing folder is the user's choice.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    throw new UsageError(
      `Cannot create the mirror ${path}: ${describeFsError(err)}. Set MTG_DATA_DIR to a folder mtg may write.`,
    );
  }
}

export function checkWritable(path: string): void {
  for (const p of [dirname(path), path]) {
    try {
      accessSync(p, constants.W_OK);
    } catch (err) {
      throw new UsageError(
        `Cannot write the mirror ${path}: ${p === path ? 'the file' : 'its folder'} is read-only (${describeFsError(err)}). Set MTG_DATA_DIR to a folder mtg may write.`,
      );
    }
  }
}

/** Refuse a file that is not SQLite without letting SQLite touch it. */
function checkHeader(path: string, size: number): void {
  if (size === 0) return; // SQLite treats an empty file as an empty database.
  const buf = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buf, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (size < 100 || buf.toString('latin1') !== SQLITE_HEADER) {
    throw new UsageError(`${path} is not an mtg mirror (not an SQLite database); move it away`);
  }
}

/**
 * Why the file at `path` is not an mtg mirror, or undefined when it is one (what `mirror reset` may
 * delete). Recognised the way openMirror() does: an empty file (mtg creates it before its schema), an
 * SQLite file with no tables yet, or one with a schema version and mtg's meta table. Never writes.
 */
export function notAMirror(path: string): string | undefined {
  const size = statSync(path).size;
  if (size === 0) return undefined;
  const buf = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buf, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (size < 100 || buf.toString('latin1') !== SQLITE_HEADER) return 'not an SQLite database';
  let db: Db;
  try {
    db = openDb(path, { readonly: true });
  } catch (err) {
    return `it cannot be read: ${err instanceof Error ? err.message : String(err)}`;
  }
  try {
    const version = schemaVersion(db);
    const tables = db
      .prepare<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
      )
      .all()
      .map((r) => r.name);
    if (tables.length === 0) return undefined;
    if (version === 0) return "another program's SQLite database";
    if (!tables.includes('meta')) return 'it has no meta table';
    return undefined;
  } catch (err) {
    return `it cannot be read: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    db.close();
  }
}

/** A corrupt file, another program's database, or one of a newer mtg: refused before any write. */
function inspect(db: Db, path: string, readonly: boolean): void {
  let version: number;
  let tables: string[];
  try {
    version = schemaVersion(db);
    tables = db
      .prepare<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
      )
      .all()
      .map((r) => r.name);
  } catch (err) {
    throw openError(path, err);
  }
  if (version === 0 && tables.length > 0) {
    throw new UsageError(`${path} is not an mtg mirror (another program's SQLite database); move it away`);
  }
  if (version > SCHEMA_VERSION) {
    throw new UsageError(
      `${path} was written by a newer mtg (schema ${version}; this mtg knows ${SCHEMA_VERSION}): upgrade mtg`,
    );
  }
  if (version > 0 && !tables.includes('meta')) {
    throw new UsageError(`${path} is not an mtg mirror (it has no meta table); move it away`);
  }
  if (readonly && version === 0) throw new EmptyMirrorError(path);
  if (readonly && version < SCHEMA_VERSION) throw new OlderSchema(version);
}

function tightenMode(path: string): void {
  try {
    chmodSync(path, 0o600);
  } catch {
    // Not the owner (a shared, read-mostly setup): leave the mode as it is.
  }
}

/** A driver error while opening, as one line. */
export function openError(path: string, err: unknown): Error {
  const code = sqliteErrorCode(err);
  const detail = err instanceof Error ? err.message : String(err);
  if (code === 'SQLITE_NOTADB') {
    return new UsageError(`${path} is not an mtg mirror (not an SQLite database); move it away`);
  }
  if (code?.startsWith('SQLITE_CORRUPT')) {
    return new UsageError(
      `The mirror ${path} is corrupt (${detail}); delete it with \`mtg mirror reset --force\` and sync again`,
    );
  }
  if (code?.startsWith('SQLITE_CANTOPEN') || code?.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM') {
    return new UsageError(
      `Cannot open the mirror ${path} (${detail}); check that its folder is writable, or set MTG_DATA_DIR`,
    );
  }
  if (code === 'SQLITE_FULL') return new UsageError(`Cannot write the mirror ${path}: the disk is full`);
  return err instanceof Error ? err : new Error(detail);
}

function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'ENOSPC') return 'the disk is full';
  if (code === 'ENOTDIR') return 'a part of the path is not a folder';
  return err instanceof Error ? err.message : String(err);
}
