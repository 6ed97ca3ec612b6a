// Read-only SQL on the mirror (`mtg sql`, and `mtg mcp`'s sql tool): one statement, refused unless
// it only reads and returns rows; integers exact (an ID past 2^53 keeps its digits).

import { UsageError } from '../api/errors.js';
import { fromBigInt } from '../api/exact.js';
import type { Db, Statement } from './driver.js';

/** SQLite's message on one line, for a usage error. */
function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
}

/** An SQLite error (a bad statement, or one that fails while its rows are read) as exit 2. */
export function sqlError(err: unknown): UsageError {
  return new UsageError(`SQL error: ${oneLine(err)}`);
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
 * Rows as every writer prints them the same way on every driver: each BigInt a plain number when
 * safe, else an ExactInteger (its digits kept); each BLOB as blobValue().
 */
function* portableRows(rows: Iterable<Record<string, unknown>>): Generator<Record<string, unknown>> {
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      const portable =
        typeof value === 'bigint'
          ? fromBigInt(value)
          : value instanceof Uint8Array
            ? blobValue(value)
            : value;
      // defineProperty: a column named "__proto__" would otherwise set the row's prototype.
      if (portable !== value)
        Object.defineProperty(row, key, {
          value: portable,
          writable: true,
          enumerable: true,
          configurable: true,
        });
    }
    yield row;
  }
}

export interface SqlRows {
  /** The statement's columns, as it names them. */
  columns: string[];
  /** Runs the statement: its rows, lazily (stop iterating to stop reading); SQLite errors are exit 2. */
  rows(): Iterable<Record<string, unknown>>;
}

/**
 * Prepared and checked now (exit 2 before any row); run when rows() is iterated. `caller` names
 * the reader in the refusals ("mtg sql", "the sql tool"), so each reads naturally where it is shown.
 */
export function sqlRows(db: Db, query: string, caller = 'mtg sql'): SqlRows {
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
          yield* portableRows(rows);
        } catch (err) {
          throw isSqliteError(err) ? sqlError(err) : err;
        }
      })();
    },
  };
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
