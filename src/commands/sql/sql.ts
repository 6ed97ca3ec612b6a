// mtg sql: read-only SQL on the local mirror, rows in every output format; --schema prints the tables.

import { planOutput, resolveFields } from '../../cli/output-plan.js';
import { defineRun } from '../../cli/spec.js';
import { MirrorReads } from '../../mirror/reads.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import * as spec from './spec.js';

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
    const schema = new MirrorReads(await ctx.mirror({ readonly: true })).schema();
    await (await planOutput(ctx, 'raw')).document(schema.map((sql) => `${sql};\n`).join(''));
    return ExitCode.ok;
  }
  const plan = await planOutput(ctx, 'raw');
  // Run apart (a child process), so that --timeout and Ctrl-C stop even a statement that never ends.
  const { columns, rows } = new MirrorReads(await ctx.mirror({ readonly: true })).boundedSql(
    query!,
    'mtg sql',
    {
      timeoutMs: ctx.globals.timeoutMs,
      timeoutHint: ' (--timeout)',
      signal: ctx.signal,
    },
  );
  // The fields a query has are its columns: a misspelt one is exit 2 before any row, not a null column.
  resolveFields(ctx, { name: 'this query (its columns)', fields: columns });
  // Columns as the query names them; --limit stops the reading (plan.list).
  await plan.list(rows(), { fields: columns, tableColumns: columns, flatColumns: columns, open: true });
  return ExitCode.ok;
});
