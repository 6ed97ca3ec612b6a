// `sql`: one read-only statement on the mirror, rows as `mtg sql --json` prints them. The statement
// runs in a child process (src/mirror/sql-runner.ts), so a runaway one blocks no other call and no
// shutdown: past the server's bound (--timeout), on the client's cancel or when the server stops,
// it is killed.

import { z } from 'zod';
import { SqlError } from '../../mirror/sql.js';
import { SqlTimeoutError } from '../../mirror/sql-runner.js';
import { UsageError } from '../../shared/errors.js';
import { ITEMS_BOUND, jsonCost, shortenStrings, takePage } from '../paging.js';
import {
  DATA_NOT_INSTRUCTIONS,
  defineTool,
  exactValues,
  LIVE_ROWS,
  type Obj,
  ok,
  READ,
  text,
  wholeIn,
} from './define.js';

export const sql = defineTool({
  name: 'sql',
  title: 'SQL on the mirror',
  description:
    'One read-only SQL statement (SQLite) on the mirror, for questions the other tools cannot answer ' +
    '(counts, joins, grouping). Tables: meetings, action_items, people, companies (json column: the object ' +
    "as the service sent it; query it with json ->> '$.field'), transcripts (meeting_id, json), changes. " +
    'Returns {columns, rows, truncated}; truncated when rows were left out (limit, default 200, or the size bound). ' +
    'A statement that runs too long is stopped. ' +
    LIVE_ROWS +
    DATA_NOT_INSTRUCTIONS,
  input: z.strictObject({
    query: text('query').describe('one SELECT (or other read-only) statement'),
    limit: wholeIn('limit', 1, 1_000).optional().describe('rows at most (default 200)'),
  }),
  annotations: READ,
  run: async (a, { access, options, request }) =>
    access.read(async (r) => {
      const limit = a.limit ?? 200;
      const signals = [request.mcpReq.signal, options.stopping].filter((s) => s !== undefined);
      const { columns, rows } = sqlOf(() =>
        r.boundedSql(a.query, {
          timeoutMs: options.sqlTimeoutMs,
          signal: AbortSignal.any(signals),
          pool: options.sqlPool,
        }),
      );
      // The rows a page can hold, and one more to know there are more; the rest is never stepped.
      const read = await sqlOf(() => firstRows(rows(), limit + 1));
      let cut = false;
      const { page, more } = takePage(read, 0, limit, exactValues, (row, room) => {
        cut = true;
        return shortenStrings(row, room);
      });
      const result: Obj = { columns, rows: page, truncated: more || cut };
      if (cut)
        result.note = 'a value too long to send whole was cut (…[cut]): select it in pieces with substr()';
      return ok(result);
    }),
});

/**
 * Up to `count` rows, fewer once their JSON costs more than a page holds: takePage stops there too, and
 * the row past the bound, kept, makes it say that more were left out.
 */
async function firstRows(rows: AsyncIterable<Obj>, count: number): Promise<Obj[]> {
  const read: Obj[] = [];
  let used = 0;
  for await (const row of rows) {
    read.push(row);
    used += jsonCost(exactValues(row)) + 1;
    if (read.length >= count || used > ITEMS_BOUND) break;
  }
  return read;
}

/**
 * The sql tool's statement run; SQLite's refusal says that the query could not run, then why, and
 * a statement past the bound says what to do instead.
 */
function sqlOf<T>(run: () => T): T {
  const said = (err: unknown): never => {
    if (err instanceof SqlError) throw new UsageError(`the query could not run: SQLite says: ${err.sqlite}`);
    if (err instanceof SqlTimeoutError)
      throw new UsageError(`${err.message}; narrow it (a WHERE, a LIMIT) or ask another tool`);
    throw err;
  };
  try {
    const result = run();
    return (result instanceof Promise ? result.catch(said) : result) as T;
  } catch (err) {
    return said(err);
  }
}
