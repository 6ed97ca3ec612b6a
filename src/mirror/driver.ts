// The one file that loads an SQLite driver. Everything else in mtg talks to the small `Db` interface
// below, whichever driver is behind it: `node:sqlite`, built into Node.js (no native build, nothing
// to install), where it has what mtg uses (22.16 and newer: FTS5 and StatementSync#columns()), and
// better-sqlite3, an optional native dependency, on older Node (20). Both are kept out of the bundle
// (scripts/build.mjs) and required on first use, so commands that never open the mirror load
// neither. MTG_SQLITE_DRIVER=node:sqlite|better-sqlite3 picks one (the bench compares them).

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { ExitCode, MtgError, UsageError } from '../api/errors.js';
import { sqliteCall, sqliteRows } from './sqlite-codes.js';

export { sqliteErrorCode } from './sqlite-codes.js';

export type SqlValue = string | number | bigint | null | Uint8Array;
export type Params = SqlValue[] | [Record<string, SqlValue>];

/** Errors from a statement or an open carry SQLite's code name (`SQLITE_CONSTRAINT_UNIQUE`, ...) as `code`. */
export interface Statement<Row = Record<string, unknown>> {
  get(...params: Params): Row | undefined;
  all(...params: Params): Row[];
  run(...params: Params): { changes: number; lastInsertRowid: number | bigint };
  iterate(...params: Params): IterableIterator<Row>;
  /** Column names of a statement that returns rows (empty for one that does not). */
  columns(): string[];
  /** True when the statement only reads (SQLite's sqlite3_stmt_readonly). */
  readonly readonly: boolean;
  /** Integers come back as BigInt (every digit of a 64-bit value) instead of a rounded number. */
  safeIntegers(): Statement<Row>;
}

export interface Db {
  exec(sql: string): void;
  prepare<Row = Record<string, unknown>>(sql: string): Statement<Row>;
  /** Runs fn in one IMMEDIATE transaction (committed when it returns, rolled back when it throws). */
  transaction<T>(fn: () => T): T;
  /** `pragma('user_version')` → its single value; `pragma('integrity_check', false)` → all rows. */
  pragma(source: string, simple?: true): unknown;
  pragma(source: string, simple: false): Record<string, unknown>[];
  close(): void;
  readonly path: string;
  readonly readonly: boolean;
}

export interface OpenDbOptions {
  readonly?: boolean;
  /** Fail rather than create the file. */
  mustExist?: boolean;
  /** How long a statement waits for another connection's write lock, in ms. */
  busyTimeoutMs?: number;
}

export type DriverName = 'node:sqlite' | 'better-sqlite3';
const DRIVERS: readonly DriverName[] = ['node:sqlite', 'better-sqlite3'];

/** How a driver module is obtained: `require` in mtg, a stand-in in tests that simulate a failing load. */
export type DriverLoader = (name: DriverName) => unknown;

// What mtg uses of node:sqlite (declared here: the project's @types/node is Node 20's, which has none).
interface NodeSqliteStatement {
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
  run(...params: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...params: SqlValue[]): IterableIterator<unknown>;
  columns(): { name: string }[];
  setReadBigInts(enabled: boolean): void;
  readonly sourceSQL: string;
}
interface NodeSqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeSqliteStatement;
  close(): void;
  readonly isTransaction: boolean;
}
interface NodeSqlite {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => NodeSqliteDatabase;
  StatementSync: { prototype: Partial<NodeSqliteStatement> };
}
type Loaded =
  | { name: 'node:sqlite'; module: NodeSqlite }
  | { name: 'better-sqlite3'; module: typeof BetterSqlite3 };

const requireHere = createRequire(import.meta.url);

/**
 * require() that keeps Node 22's "SQLite is an experimental feature" warning off stderr, and only
 * that warning: mtg's output is its contract, and node:sqlite is what the mirror is tested with.
 * Node hands the warning to the 'warning' listeners (its own printer among them) on a tick queued
 * by the load: until the tick queued after it, one listener stands in for them and passes every
 * other warning on.
 */
export const requireDriver: DriverLoader = (name) => {
  if (name !== 'node:sqlite') return requireHere(name);
  // A second load in the same tick finds the listeners held already (and node warns only once).
  if (process.listeners('warning').includes(holdSqliteWarning)) return requireHere('node:sqlite');
  const listeners = process.listeners('warning') as ((warning: Error) => void)[];
  held = listeners;
  for (const listener of listeners) process.removeListener('warning', listener);
  process.on('warning', holdSqliteWarning);
  try {
    return requireHere('node:sqlite');
  } finally {
    process.nextTick(() => {
      process.removeListener('warning', holdSqliteWarning);
      for (const listener of listeners) process.on('warning', listener);
      held = [];
    });
  }
};

/** The 'warning' listeners set aside while node:sqlite loads. */
let held: ((warning: Error) => void)[] = [];

function holdSqliteWarning(warning: Error): void {
  if (warning.name === 'ExperimentalWarning' && /\bSQLite\b/.test(warning.message)) return;
  for (const listener of held) listener.call(process, warning);
}

/**
 * node:sqlite with everything the mirror needs, or undefined (older Node, or behind a flag). Node
 * 22.13-22.15 have it unflagged but without FTS5 (the mirror's search index) and columns().
 */
function nodeSqliteIfComplete(load: DriverLoader): NodeSqlite | undefined {
  let module: NodeSqlite;
  try {
    module = load('node:sqlite') as NodeSqlite;
    if (typeof module?.StatementSync?.prototype?.columns !== 'function') return undefined;
    const probe = new module.DatabaseSync(':memory:');
    try {
      const row = probe.prepare("SELECT sqlite_compileoption_used('ENABLE_FTS5') AS fts5").get();
      return (row as { fts5?: number } | undefined)?.fts5 === 1 ? module : undefined;
    } finally {
      probe.close();
    }
  } catch {
    return undefined;
  }
}

/** The mtg install folder (where `npm rebuild` runs): the nearest folder up with mtg's package.json. */
export function installFolder(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    try {
      if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'mtg') return dir;
    } catch {
      // An unreadable manifest on the way up: keep looking.
    }
    if (dirname(dir) === dir) return from;
  }
}

const MIN_NODE_SQLITE = '22.16';

/** One line: which driver, why it cannot load, and the command that fixes it. */
export function driverLoadError(
  name: DriverName,
  err: unknown,
  where: { nodeVersion?: string; abi?: string; folder?: string } = {},
): MtgError {
  const nodeVersion = where.nodeVersion ?? process.version;
  const abi = where.abi ?? process.versions.modules;
  const folder = where.folder ?? installFolder();
  const e = err as { code?: string; message?: string } | undefined;
  const message = String(e?.message ?? err);
  const head = `The local mirror's SQLite driver (${name}) cannot load`;
  const upgrade = `upgrade Node.js to ${MIN_NODE_SQLITE} or newer (it has SQLite built in)`;
  if (name === 'node:sqlite') {
    return new MtgError(
      `${head}: Node.js ${nodeVersion} has no complete node:sqlite; ${upgrade}, or unset MTG_SQLITE_DRIVER`,
      ExitCode.api,
    );
  }
  const built = /NODE_MODULE_VERSION (\d+)/.exec(message)?.[1];
  if (built !== undefined) {
    return new MtgError(
      `${head}: it was built for another Node.js version (NODE_MODULE_VERSION ${built}; Node.js ${nodeVersion} needs ${abi}). ` +
        `Fix: run \`npm rebuild better-sqlite3\` in ${folder}, or ${upgrade}`,
      ExitCode.api,
    );
  }
  if (e?.code === 'MODULE_NOT_FOUND' && /['"]better-sqlite3['"]/.test(message)) {
    return new MtgError(
      `${head}: it is not installed (an optional dependency, skipped or dropped when its build failed). ` +
        `Fix: ${upgrade}, or reinstall mtg allowing its build: \`npm install -g --allow-scripts=better-sqlite3 mtg\``,
      ExitCode.api,
    );
  }
  if (/Could not locate the bindings file|better_sqlite3\.node/.test(message)) {
    return new MtgError(
      `${head}: its native part was never built (install script blocked, or no compiler and no prebuilt binary). ` +
        `Fix: run \`npm rebuild better-sqlite3\` in ${folder}, or ${upgrade}`,
      ExitCode.api,
    );
  }
  return new MtgError(
    `${head}: ${message.split('\n')[0]}. Fix: run \`npm rebuild better-sqlite3\` in ${folder}, or ${upgrade}`,
    ExitCode.api,
  );
}

/** The driver this Node.js and MTG_SQLITE_DRIVER allow, loaded; a one-line MtgError when it cannot load. */
export function loadDriver(load: DriverLoader = requireDriver, env = process.env): Loaded {
  const wanted = env.MTG_SQLITE_DRIVER || undefined;
  if (wanted !== undefined && !DRIVERS.includes(wanted as DriverName)) {
    throw new UsageError(`MTG_SQLITE_DRIVER must be ${DRIVERS.join(' or ')}, not "${wanted}"`);
  }
  if (wanted !== 'better-sqlite3') {
    const module = nodeSqliteIfComplete(load);
    if (module) return { name: 'node:sqlite', module };
    if (wanted === 'node:sqlite') throw driverLoadError('node:sqlite', undefined);
  }
  try {
    const module = load('better-sqlite3') as typeof BetterSqlite3;
    // better-sqlite3 loads its native part at the first open: prove it loads here, where a failure
    // is the driver's and not the mirror file's.
    new module(':memory:').close();
    return { name: 'better-sqlite3', module };
  } catch (err) {
    throw driverLoadError('better-sqlite3', err);
  }
}

let loaded: Loaded | undefined;

/** The driver mirror commands use in this process. */
export function driverName(): DriverName {
  loaded ??= loadDriver();
  return loaded.name;
}

export function openDb(path: string, options: OpenDbOptions = {}): Db {
  loaded ??= loadDriver();
  return loaded.name === 'node:sqlite'
    ? openNodeSqlite(loaded.module, path, options)
    : openBetterSqlite3(loaded.module, path, options);
}

function openBetterSqlite3(Database: typeof BetterSqlite3, path: string, options: OpenDbOptions): Db {
  const raw = new Database(path, {
    readonly: options.readonly ?? false,
    fileMustExist: options.mustExist ?? options.readonly ?? false,
    timeout: options.busyTimeoutMs ?? 5000,
  });
  return {
    path,
    get readonly() {
      return raw.readonly;
    },
    exec(sql) {
      raw.exec(sql);
    },
    prepare<Row>(sql: string): Statement<Row> {
      const stmt = raw.prepare(sql);
      let bigInts = false;
      const statement: Statement<Row> = {
        get: (...params) => stmt.get(...params) as Row | undefined,
        all: (...params) => stmt.all(...params) as Row[],
        run: (...params) => {
          // Exact for this call, as node:sqlite's below: a rowid past 2^53 is a BigInt.
          stmt.safeIntegers(true);
          try {
            const r = stmt.run(...params);
            return { changes: r.changes, lastInsertRowid: exactRowid(r.lastInsertRowid, bigInts) };
          } finally {
            stmt.safeIntegers(bigInts);
          }
        },
        iterate: (...params) => stmt.iterate(...params) as IterableIterator<Row>,
        columns: () => (stmt.reader ? stmt.columns().map((c) => c.name) : []),
        readonly: stmt.readonly,
        safeIntegers: () => {
          bigInts = true;
          stmt.safeIntegers(true);
          return statement;
        },
      };
      return statement;
    },
    transaction<T>(fn: () => T): T {
      return raw.transaction(fn).immediate();
    },
    pragma(source: string, simple: boolean = true): never {
      return raw.pragma(source, { simple }) as never;
    },
    close() {
      if (raw.open) raw.close();
    },
  };
}

/** A rowid as a number where that is exact (and BigInts were not asked for), else as a BigInt. */
function exactRowid(rowid: number | bigint, bigInts: boolean): number | bigint {
  const id = BigInt(rowid);
  const safe = id <= BigInt(Number.MAX_SAFE_INTEGER) && id >= BigInt(Number.MIN_SAFE_INTEGER);
  return safe && !bigInts ? Number(id) : id;
}

// The opcodes by which SQLite's own sqlite3_stmt_readonly() calls a statement a writer
// (resolveP2Values in vdbeaux.c): node:sqlite does not expose the function, EXPLAIN shows them.
const WRITING_OPCODES = new Set(['Checkpoint', 'Vacuum', 'JournalMode']);

function statementWrites(raw: NodeSqliteDatabase, sql: string): boolean {
  if (/^\s*explain\b/i.test(sql)) return false;
  const program = raw.prepare(`EXPLAIN ${sql}`).all() as { opcode: string; p2: number }[];
  return program.some((op) => (op.opcode === 'Transaction' && op.p2 !== 0) || WRITING_OPCODES.has(op.opcode));
}

/** What follows the first statement, minus blanks, `;` and comments (better-sqlite3 refuses a second one). */
function hasSecondStatement(sql: string, first: string): boolean {
  const rest = sql.startsWith(first) ? sql.slice(first.length) : '';
  return rest.replace(/--[^\n]*|\/\*[\s\S]*?(\*\/|$)|[\s;]+/g, '') !== '';
}

/** Prepared statements a node:sqlite connection keeps for reuse. */
const STATEMENT_CACHE_SIZE = 64;

function openNodeSqlite(sqlite: NodeSqlite, path: string, options: OpenDbOptions): Db {
  const readonly = options.readonly ?? false;
  if ((options.mustExist ?? readonly) && path !== ':memory:' && !existsSync(path)) {
    throw Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
  }
  const raw = sqliteCall(() => new sqlite.DatabaseSync(path, { readOnly: readonly }));
  // The `timeout` option came later in 22.x than the pragma.
  raw.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
  let open = true;
  // Prepared statements by SQL text, least recently used first. A long-lived connection (`mtg mcp`)
  // prepares the same few statements on every call: node:sqlite frees a statement only when V8
  // collects its object, and V8 does not see the native memory behind it, so RSS grew by the
  // thousands of statements waiting for a GC.
  const cache = new Map<string, NodeSqliteStatement>();
  /** Cached statements an unfinished iterate() is stepping through. */
  const iterating = new Set<NodeSqliteStatement>();
  /** Whether a statement writes (EXPLAIN, asked once per statement). */
  const writers = new WeakMap<NodeSqliteStatement, boolean>();
  return {
    path,
    readonly,
    exec(sql) {
      sqliteCall(() => raw.exec(sql));
    },
    prepare<Row>(sql: string): Statement<Row> {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql); // to the end: the most recently used
      } else {
        stmt = sqliteCall(() => raw.prepare(sql));
        if (hasSecondStatement(sql, stmt.sourceSQL)) {
          throw new RangeError('The supplied SQL string contains more than one statement');
        }
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, stmt);
      const shared = stmt;
      let bigInts = false;
      /** The cached statement, or a copy of its own while another caller iterates it (a call would reset it). */
      const ready = (): NodeSqliteStatement => {
        const s = iterating.has(shared) ? sqliteCall(() => raw.prepare(sql)) : shared;
        // Shared by every prepare() of this text: each call sets its own integer mode.
        s.setReadBigInts(bigInts);
        return s;
      };
      const statement: Statement<Row> = {
        get: (...params) => sqliteCall(() => ready().get(...(params as SqlValue[])) as Row | undefined),
        all: (...params) => sqliteCall(() => ready().all(...(params as SqlValue[])) as Row[]),
        run: (...params) => {
          const s = ready();
          // BigInts for this call: node:sqlite throws on a rowid past 2^53 (mtg's passages use
          // such rowids; the connection's last one shows in every later run()).
          s.setReadBigInts(true);
          try {
            const r = sqliteCall(() => s.run(...(params as SqlValue[])));
            return { changes: Number(r.changes), lastInsertRowid: exactRowid(r.lastInsertRowid, bigInts) };
          } finally {
            s.setReadBigInts(bigInts);
          }
        },
        iterate: (...params) => {
          const s = ready();
          const rows = sqliteRows<Row>(
            sqliteCall(() => s.iterate(...(params as SqlValue[])) as IterableIterator<unknown>),
          );
          if (s !== shared) return rows;
          // Shared again once the rows end, fail, or the caller stops (return(), as `break` does).
          iterating.add(s);
          const release = () => iterating.delete(s);
          return {
            [Symbol.iterator]() {
              return this;
            },
            next() {
              try {
                const r = rows.next();
                if (r.done) release();
                return r;
              } catch (err) {
                release();
                throw err;
              }
            },
            return(value?: unknown) {
              release();
              return rows.return(value);
            },
          } as IterableIterator<Row>;
        },
        columns: () => shared.columns().map((c) => c.name),
        get readonly() {
          let writes = writers.get(shared);
          if (writes === undefined) {
            writes = sqliteCall(() => statementWrites(raw, sql));
            writers.set(shared, writes);
          }
          return !writes;
        },
        safeIntegers: () => {
          bigInts = true;
          return statement;
        },
      };
      return statement;
    },
    transaction<T>(fn: () => T): T {
      // As better-sqlite3's: a savepoint when a transaction is already open, so an inner failure
      // undoes only the inner part.
      const nested = raw.isTransaction;
      sqliteCall(() => raw.exec(nested ? 'SAVEPOINT mtg_tx' : 'BEGIN IMMEDIATE'));
      try {
        const result = fn();
        sqliteCall(() => raw.exec(nested ? 'RELEASE mtg_tx' : 'COMMIT'));
        return result;
      } catch (err) {
        // SQLite may have rolled back already (some errors end the transaction themselves).
        if (raw.isTransaction) raw.exec(nested ? 'ROLLBACK TO mtg_tx; RELEASE mtg_tx' : 'ROLLBACK');
        throw err;
      }
    },
    pragma(source: string, simple: boolean = true): never {
      const stmt = sqliteCall(() => raw.prepare(`PRAGMA ${source}`));
      if (!simple) return sqliteCall(() => stmt.all()) as never;
      const row = sqliteCall(() => stmt.get()) as Record<string, unknown> | undefined;
      return (row === undefined ? undefined : Object.values(row)[0]) as never;
    },
    close() {
      cache.clear();
      if (open) raw.close();
      open = false;
    },
  };
}
