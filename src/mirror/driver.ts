// The one file that imports the SQLite driver (better-sqlite3). Everything else in mtg talks to the
// small `Db` interface below, so moving to `node:sqlite` (once Node 22 is the floor) touches only
// this file. The driver is a native module kept out of the bundle (scripts/build.mjs): it is
// required on first use, so commands that never open the mirror never load it.

import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { ExitCode, MtgError } from '../api/errors.js';

export type SqlValue = string | number | bigint | null | Uint8Array;
export type Params = SqlValue[] | [Record<string, SqlValue>];

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

type Driver = typeof BetterSqlite3;
let driver: Driver | undefined;

function loadDriver(): Driver {
  if (!driver) {
    const require = createRequire(import.meta.url);
    try {
      driver = require('better-sqlite3') as Driver;
    } catch (err) {
      // Installed with --ignore-scripts, or its native build was not allowed or failed.
      throw new MtgError(
        `The SQLite driver of the local mirror (better-sqlite3) cannot be loaded: ${(err as Error).message.split('\n')[0]}. ` +
          'Reinstall mtg allowing its native build, e.g. `npm install -g --allow-scripts=better-sqlite3 mtg` (README: Local mirror).',
        ExitCode.api,
      );
    }
  }
  return driver;
}

export function openDb(path: string, options: OpenDbOptions = {}): Db {
  const Database = loadDriver();
  const raw = new Database(path, {
    readonly: options.readonly ?? false,
    fileMustExist: options.mustExist ?? options.readonly ?? false,
    timeout: options.busyTimeoutMs ?? 5000,
  });
  return wrap(raw, path);
}

function wrap(raw: BetterSqlite3.Database, path: string): Db {
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
      const statement: Statement<Row> = {
        get: (...params) => stmt.get(...params) as Row | undefined,
        all: (...params) => stmt.all(...params) as Row[],
        run: (...params) => {
          const r = stmt.run(...params);
          return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
        },
        iterate: (...params) => stmt.iterate(...params) as IterableIterator<Row>,
        columns: () => (stmt.reader ? stmt.columns().map((c) => c.name) : []),
        readonly: stmt.readonly,
        safeIntegers: () => {
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

/** SQLite's error code name ("SQLITE_NOTADB", "SQLITE_READONLY", ...) of a driver error. */
export function sqliteErrorCode(err: unknown): string | undefined {
  if (err && typeof err === 'object' && 'code' in err) {
    const code = (err as { code: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
  }
  return undefined;
}
