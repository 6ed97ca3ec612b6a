// mtg sql: read-only SQL on the local mirror, rows in every output format; --schema prints the tables.

import { ExitCode, UsageError } from '../../api/errors.js';
import { fromBigInt } from '../../api/exact.js';
import { defineRun } from '../../cli/spec.js';
import type { Statement } from '../../mirror/driver.js';
import { openMirrorForReading } from '../../mirror/read-target.js';
import { planOutput, resolveFields } from '../../output/plan.js';
import * as spec from './spec.js';

/** SQLite's message on one line, for a usage error. */
function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
}

/** Rows with each BigInt a plain number when safe, else an ExactInteger (every writer prints its digits). */
function* exactIntegers(rows: Iterable<Record<string, unknown>>): Generator<Record<string, unknown>> {
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      // defineProperty: a column named "__proto__" would otherwise set the row's prototype.
      if (typeof value === 'bigint')
        Object.defineProperty(row, key, {
          value: fromBigInt(value),
          writable: true,
          enumerable: true,
          configurable: true,
        });
    }
    yield row;
  }
}

export const run = defineRun(spec.sql, async (ctx, args, opts) => {
  const query = args.QUERY;
  if (opts.schema && query !== undefined) throw new UsageError('give either a QUERY or --schema, not both');
  if (!opts.schema && (query === undefined || query.trim() === '')) {
    throw new UsageError('no SQL given: mtg sql "SELECT …" (or --schema for the tables)');
  }
  if (opts.schema) {
    // The schema is SQL text: row options would do nothing.
    for (const [given, flag] of [
      [ctx.globals.fields, '--fields'],
      [ctx.globals.limit, '--limit'],
      [ctx.globals.format, '--format/--json'],
    ] as const) {
      if (given !== undefined)
        throw new UsageError(`mtg sql --schema prints SQL text: it does not take ${flag}`);
    }
    const mirror = await openMirrorForReading(ctx);
    try {
      const rows = mirror.db
        .prepare<{ sql: string }>(
          "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'" +
            " AND NOT (type = 'table' AND name LIKE 'passages_%') ORDER BY type = 'index', rowid",
        )
        .all();
      await (await planOutput(ctx, 'raw')).document(rows.map((r) => `${r.sql};\n`).join(''));
    } finally {
      mirror.close();
    }
    return ExitCode.ok;
  }
  const plan = await planOutput(ctx, 'raw');
  const mirror = await openMirrorForReading(ctx);
  try {
    let stmt: Statement;
    try {
      stmt = mirror.db.prepare(query!);
    } catch (err) {
      throw new UsageError(`SQL error: ${oneLine(err)}`);
    }
    // Checked before running; the connection is read-only (and query_only) as well.
    if (!stmt.readonly) throw new UsageError('mtg sql only reads: this statement would write to the mirror');
    const columns = stmt.columns();
    if (columns.length === 0)
      throw new UsageError('mtg sql runs statements that return rows (SELECT, read-only PRAGMA)');
    // The fields a query has are its columns: a misspelt one is exit 2 before any row, not a null column.
    resolveFields(ctx, { name: 'this query (its columns)', fields: columns });
    let rows: Iterable<Record<string, unknown>>;
    try {
      // Integers as BigInt: beyond 2^53 a number would lose digits (safe ones print as before).
      rows = exactIntegers(stmt.safeIntegers().iterate());
    } catch (err) {
      throw new UsageError(`SQL error: ${oneLine(err)}`);
    }
    try {
      // Columns as the query names them; --limit stops the reading (plan.list).
      await plan.list(rows, { fields: columns, tableColumns: columns, flatColumns: columns, open: true });
    } catch (err) {
      if (err instanceof Error && (err as { code?: string }).code?.startsWith('SQLITE_')) {
        throw new UsageError(`SQL error: ${oneLine(err)}`);
      }
      throw err;
    }
  } finally {
    mirror.close();
  }
  return ExitCode.ok;
});
