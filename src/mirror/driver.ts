// The one file that loads an SQLite driver. Everything else in mtg talks to the small `Db` interface
// (db.ts), whichever driver is behind it: `node:sqlite`, built into Node.js (no native build, nothing
// to install), where it has what mtg uses (22.16 and newer: FTS5 and StatementSync#columns()), and
// better-sqlite3, an optional native dependency, on older Node (20). Both are kept out of the bundle
// (scripts/build.mjs) and required on first use, so commands that never open the mirror load
// neither. MTG_SQLITE_DRIVER=node:sqlite|better-sqlite3 picks one (the bench compares them).

import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { ExitCode, MtgError, UsageError } from '../shared/errors.js';
import { installFolder } from '../shared/install-folder.js';
import { type Db, exactRowid, type OpenDbOptions, type Statement } from './db.js';
import { type NodeSqlite, openNodeSqlite } from './driver-node-sqlite.js';
import { StatementCache } from './driver-statements.js';

export type { Db, OpenDbOptions, Params, SqlValue, Statement } from './db.js';
export { sqliteErrorCode } from './sqlite-codes.js';

export type DriverName = 'node:sqlite' | 'better-sqlite3';
const DRIVERS: readonly DriverName[] = ['node:sqlite', 'better-sqlite3'];

/** How a driver module is obtained: `require` in mtg, a stand-in in tests that simulate a failing load. */
export type DriverLoader = (name: DriverName) => unknown;

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

/** package.json's "name" (`mtg` on npm is someone else's package); test/docs/package-name.test.ts keeps them equal. */
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
        `Fix: ${upgrade}, or reinstall mtg allowing its build: \`npm install -g --allow-scripts=better-sqlite3 meeting-notes-cli\``,
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

/**
 * What a child process requires to load the same driver (sql-runner.ts runs a user's statement in
 * one): `node:sqlite`, or the path of better-sqlite3's entry.
 */
export function driverSpecifier(): string {
  loaded ??= loadDriver();
  return loaded.name === 'node:sqlite' ? 'node:sqlite' : requireHere.resolve('better-sqlite3');
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
  const statements = new StatementCache((sql) => raw.prepare(sql));
  return {
    path,
    get readonly() {
      return raw.readonly;
    },
    exec(sql) {
      raw.exec(sql);
    },
    prepare<Row>(sql: string): Statement<Row> {
      const shared = statements.shared(sql);
      let bigInts = false;
      const ready = () => {
        const s = statements.ready(sql, shared);
        // Shared by every prepare() of this text: each call sets its own integer mode.
        s.safeIntegers(bigInts);
        return s;
      };
      const statement: Statement<Row> = {
        get: (...params) => ready().get(...params) as Row | undefined,
        all: (...params) => ready().all(...params) as Row[],
        run: (...params) => {
          // Exact for this call, as node:sqlite's: a rowid past 2^53 is a BigInt.
          const s = ready().safeIntegers(true);
          try {
            const r = s.run(...params);
            return { changes: r.changes, lastInsertRowid: exactRowid(r.lastInsertRowid, bigInts) };
          } finally {
            s.safeIntegers(bigInts);
          }
        },
        iterate: (...params) => {
          const s = ready();
          return statements.walk(s, shared, s.iterate(...params) as IterableIterator<Row>);
        },
        columns: () => (shared.reader ? shared.columns().map((c) => c.name) : []),
        readonly: shared.readonly,
        safeIntegers: () => {
          bigInts = true;
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
    defineFunction(name, fn) {
      raw.function(name, { deterministic: true }, fn as (...args: unknown[]) => unknown);
    },
    close() {
      statements.clear();
      if (raw.open) raw.close();
    },
  };
}
