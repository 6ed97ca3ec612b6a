// Read-only SQL on the mirror (`mtg sql`, and `mtg mcp`'s sql tool): one statement, refused unless
// it only reads and returns rows; integers exact (an ID past 2^53 keeps its digits).

import { UsageError } from '../shared/errors.js';
import { fromBigInt } from '../shared/exact.js';
import type { Db, Statement } from './driver.js';
import { rowsApart, type StatementPool } from './sql-runner.js';

/** SQLite's message on one line, for a usage error. */
function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
}

/** SQLite refused a statement, or failed while its rows were read: exit 2, with SQLite's words. */
export class SqlError extends UsageError {
  constructor(readonly sqlite: string) {
    super(`SQL error: ${sqlite}`);
  }
}

/** An SQLite error (a bad statement, or one that fails while its rows are read) as exit 2. */
export function sqlError(err: unknown): SqlError {
  return new SqlError(oneLine(err));
}

function isSqliteError(err: unknown): boolean {
  return err instanceof Error && !!(err as { code?: string }).code?.startsWith('SQLITE_');
}

/**
 * A BLOB cell as sqlite-utils and Datasette write one in JSON. Each driver gives its own class
 * (better-sqlite3 a Buffer, node:sqlite a Uint8Array), which printed differently on each Node line
 * and as a list of byte values.
 */
function blobValue(bytes: Uint8Array): { $base64: true; encoded: string } {
  return {
    $base64: true,
    encoded: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  };
}

/**
 * A row as every writer prints it the same way on every driver: each BigInt a plain number when
 * safe, else an ExactInteger (its digits kept); each BLOB as blobValue().
 */
function portableRow(row: Record<string, unknown>): Record<string, unknown> {
  for (const key in row) {
    const value = row[key];
    const portable =
      typeof value === 'bigint' ? fromBigInt(value) : value instanceof Uint8Array ? blobValue(value) : value;
    if (portable !== value) setCell(row, key, portable);
  }
  return row;
}

/** row[column] = value, also for a column named "__proto__" (an assignment would set the row's prototype). */
function setCell(row: Record<string, unknown>, column: string, value: unknown): void {
  Object.defineProperty(row, column, { value, writable: true, enumerable: true, configurable: true });
}

export interface SqlRows {
  /** The statement's columns, as it names them. */
  columns: string[];
  /** Runs the statement: its rows, lazily (stop iterating to stop reading); SQLite errors are exit 2. */
  rows(): Iterable<Record<string, unknown>>;
}

/** The pragmas whose argument only says what to read about (a table, an index) or bounds a check. */
const READING_PRAGMAS = new Set([
  'table_info',
  'table_xinfo',
  'table_list',
  'index_info',
  'index_xinfo',
  'index_list',
  'foreign_key_list',
  'foreign_key_check',
  'integrity_check',
  'quick_check',
]);

/**
 * The words and signs a statement starts with (at most `count`), blanks and comments skipped, names
 * unquoted and lowercased: enough to tell what a PRAGMA does.
 */
function leadingTokens(sql: string, count: number): string[] {
  const token =
    /\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?(?:\*\/|$)|"((?:[^"]|"")*)"|`((?:[^`]|``)*)`|\[([^\]]*)\]|'((?:[^']|'')*)'|([\w$]+)|([\s\S])/y;
  const tokens: string[] = [];
  while (tokens.length < count) {
    const m = token.exec(sql);
    if (m === null) break;
    const [whole, dq, bq, br, sq, word, sign] = m;
    if (whole.trim() === '' || whole.startsWith('--') || whole.startsWith('/*')) continue;
    const name = dq ?? bq ?? br ?? sq ?? word;
    tokens.push(name !== undefined ? name.toLowerCase() : sign!);
  }
  return tokens;
}

/**
 * `PRAGMA name = value` and `PRAGMA name(value)` change a setting of the connection, and SQLite
 * applies most of them while preparing (mmap_size, cache_size, ...): refused before anything
 * prepares them, EXPLAIN'd or not. Reading one (`PRAGMA user_version`, `PRAGMA table_info(x)`) is
 * allowed.
 */
function refuseSettingPragma(sql: string, caller: string): void {
  const t = leadingTokens(sql, 8);
  let i = 0;
  if (t[i] === 'explain') i += t[i + 1] === 'query' && t[i + 2] === 'plan' ? 3 : 1;
  if (t[i] !== 'pragma') return;
  let name = t[i + 1];
  let after = t[i + 2];
  if (after === '.') {
    name = t[i + 3];
    after = t[i + 4];
  }
  if ((after === '=' || after === '(') && name !== undefined && !READING_PRAGMAS.has(name)) {
    throw new UsageError(
      `${caller} only reads: PRAGMA ${name} with a value would change a setting (PRAGMA ${name} alone reads it)`,
    );
  }
}

/**
 * Prepared and checked: one statement that only reads and returns rows (exit 2 otherwise). Its
 * columns now; `stmt` runs it.
 */
function checkedStatement(db: Db, query: string, caller: string): { stmt: Statement; columns: string[] } {
  refuseSettingPragma(query, caller);
  let stmt: Statement;
  try {
    stmt = db.prepare(query);
  } catch (err) {
    throw sqlError(err);
  }
  // Checked before running; the connection is read-only (and query_only) as well.
  if (!stmt.readonly) throw new UsageError(`${caller} only reads: this statement would write to the mirror`);
  const columns = stmt.columns();
  if (columns.length === 0)
    throw new UsageError(`${caller} runs statements that return rows (SELECT, read-only PRAGMA)`);
  return { stmt, columns };
}

/**
 * Prepared and checked now (exit 2 before any row); run when rows() is iterated, in this thread:
 * for mtg's own statements. `caller` names the reader in the refusals ("mtg sql", "the sql tool"),
 * so each reads naturally where it is shown.
 */
export function sqlRows(db: Db, query: string, caller = 'mtg sql'): SqlRows {
  const { stmt, columns } = checkedStatement(db, query, caller);
  return {
    columns,
    rows() {
      let rows: Iterable<Record<string, unknown>>;
      try {
        // Integers as BigInt: beyond 2^53 a number would lose digits (safe ones print as before).
        rows = stmt.safeIntegers().iterate();
      } catch (err) {
        throw sqlError(err);
      }
      return (function* () {
        try {
          for (const row of rows) yield portableRow(row);
        } catch (err) {
          throw isSqliteError(err) ? sqlError(err) : err;
        }
      })();
    },
  };
}

export interface BoundedSqlRows {
  /** The statement's columns, as it names them. */
  columns: string[];
  /**
   * Runs the statement in a child process (sql-runner.ts): its rows, lazily; stopping the iteration
   * stops the statement. SQLite errors are exit 2; past the time limit SqlTimeoutError (exit 1);
   * aborted InterruptedError.
   */
  rows(): AsyncIterable<Record<string, unknown>>;
}

export interface BoundedSqlOptions {
  /** The statement's time limit, in ms. */
  timeoutMs: number;
  /** Said after the limit in the timeout's message, e.g. " (--timeout)". */
  timeoutHint?: string;
  signal?: AbortSignal;
  /** Where a long-lived caller (`mtg mcp`) takes a process for the statement from; none: one of its own. */
  pool?: StatementPool;
}

/**
 * A user's statement: checked here now (exit 2 before any row), run apart when rows() is iterated,
 * so that a runaway one can be stopped (its time limit, Ctrl-C, a server's shutdown).
 */
export function boundedSqlRows(
  db: Db,
  query: string,
  caller: string,
  options: BoundedSqlOptions,
): BoundedSqlRows {
  const { columns } = checkedStatement(db, query, caller);
  return {
    columns,
    rows() {
      return (async function* () {
        for await (const cells of rowsApart(db.path, query, { ...options, sqlError })) {
          yield portableRow(rowOf(columns, cells));
        }
      })();
    },
  };
}

/** A row's cells as an object keyed by its columns. */
function rowOf(columns: string[], cells: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [i, column] of columns.entries()) setCell(row, column, cells[i]);
  return row;
}

/** The CREATE statements of mtg's tables and indexes (not SQLite's own, nor the search index's shadow tables). */
export function sqlSchema(db: Db): string[] {
  return db
    .prepare<{ sql: string }>(
      "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'" +
        " AND NOT (type = 'table' AND name LIKE 'passages_%') ORDER BY type = 'index', rowid",
    )
    .all()
    .map((r) => r.sql);
}
