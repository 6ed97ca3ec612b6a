// The read-only SQL of `mtg sql` and the `sql` tool of `mtg mcp`: one statement, checked to only
// read before it runs, rows with integers exact. The mirror is opened read-only (and query_only) as
// well; this check says why in one line instead of SQLite's error.

import { UsageError } from '../api/errors.js';
import { type ExactInteger, fromBigInt } from '../api/exact.js';
import type { Db, Statement } from './driver.js';

/** SQLite's message on one line, for a usage error. */
export function sqlErrorLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
}

/** An SQLite error of running a statement (a usage error), as opposed to any other failure. */
export function isSqliteError(err: unknown): boolean {
  return err instanceof Error && !!(err as { code?: string }).code?.startsWith('SQLITE_');
}

export interface ReadQuery {
  stmt: Statement;
  columns: string[];
}

/** One statement prepared and checked: it only reads, and it returns rows (UsageError otherwise). */
export function prepareReadQuery(db: Db, query: string, who = 'mtg sql'): ReadQuery {
  let stmt: Statement;
  try {
    stmt = db.prepare(query);
  } catch (err) {
    throw new UsageError(`SQL error: ${sqlErrorLine(err)}`);
  }
  if (!stmt.readonly) throw new UsageError(`${who} only reads: this statement would write to the mirror`);
  const columns = stmt.columns();
  if (columns.length === 0)
    throw new UsageError(`${who} runs statements that return rows (SELECT, read-only PRAGMA)`);
  return { stmt, columns };
}

/** The rows, each BigInt a plain number when safe, else an ExactInteger (every writer prints its digits). */
export function exactRows(stmt: Statement): Iterable<Record<string, unknown>> {
  let rows: Iterable<Record<string, unknown>>;
  try {
    // Integers as BigInt: beyond 2^53 a number would lose digits (safe ones print as before).
    rows = stmt.safeIntegers().iterate();
  } catch (err) {
    throw new UsageError(`SQL error: ${sqlErrorLine(err)}`);
  }
  return exactIntegers(rows);
}

function* exactIntegers(rows: Iterable<Record<string, unknown>>): Generator<Record<string, unknown>> {
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      // defineProperty: a column named "__proto__" would otherwise set the row's prototype.
      if (typeof value === 'bigint')
        Object.defineProperty(row, key, {
          value: fromBigInt(value) as number | ExactInteger,
          writable: true,
          enumerable: true,
          configurable: true,
        });
    }
    yield row;
  }
}
