// `sql`: one read-only statement on the mirror, rows as `mtg sql --json` prints them.

import { z } from 'zod';
import { UsageError } from '../../api/errors.js';
import { shortenStrings, takePage } from '../paging.js';
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
    LIVE_ROWS +
    DATA_NOT_INSTRUCTIONS,
  input: z.strictObject({
    query: text('query').describe('one SELECT (or other read-only) statement'),
    limit: wholeIn('limit', 1, 1_000).optional().describe('rows at most (default 200)'),
  }),
  annotations: READ,
  run: async (a, { access }) =>
    access.read((r) => {
      const { columns, rows } = sqlOf(() => r.sql(a.query));
      let cut = false;
      const { page, more } = takePage(rows, 0, a.limit ?? 200, exactValues, (row, room) => {
        cut = true;
        return shortenStrings(row, room);
      });
      const result: Obj = { columns, rows: page, truncated: more || cut };
      if (cut)
        result.note = 'a value too long to send whole was cut (…[cut]): select it in pieces with substr()';
      return ok(result);
    }),
});

/** The sql tool's statement run; SQLite's refusal says that the query could not run, then why. */
function sqlOf<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof UsageError && err.message.startsWith('SQL error: '))
      throw new UsageError(
        `the query could not run: SQLite says: ${err.message.slice('SQL error: '.length)}`,
      );
    throw err;
  }
}
