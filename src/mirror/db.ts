// What the mirror's code sees of an SQLite connection, whichever driver is behind it (driver.ts
// loads one; driver-node-sqlite.ts adapts node:sqlite to it): a small interface, so that queries
// are written once.

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
  /** Registers a deterministic SQL function of this connection (mtg's own, e.g. folding text). */
  defineFunction(name: string, fn: (...args: SqlValue[]) => SqlValue): void;
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

/** A rowid as a number where that is exact (and BigInts were not asked for), else as a BigInt. */
export function exactRowid(rowid: number | bigint, bigInts: boolean): number | bigint {
  const id = BigInt(rowid);
  const safe = id <= BigInt(Number.MAX_SAFE_INTEGER) && id >= BigInt(Number.MIN_SAFE_INTEGER);
  return safe && !bigInts ? Number(id) : id;
}
