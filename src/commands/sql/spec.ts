// mtg sql, as data: read-only SQL on the local mirror.

import { LOCAL_LIMIT_OPTIONS, MIRROR_OPTIONS, OUTPUT_OPTIONS, withFields } from '../../cli/globals.js';
import { defineCommand } from '../../cli/spec.js';

export const sql = defineCommand({
  name: 'sql',
  summary: 'Run a read-only SQL query on the local mirror',
  description:
    'Run one SQL statement on the local mirror (SQLite, opened read-only; `mtg sql --schema` prints the ' +
    'schema, docs/mirror.md explains it). Rows come out in any output format, columns as the query names them. ' +
    'A statement that would write (or a `PRAGMA name = value`), or a syntax error, is exit 2. A statement ' +
    'runs at most --timeout seconds (then exit 1); Ctrl-C stops it at once (exit 130). Sends no request.',
  args: [{ name: 'QUERY', description: 'one SELECT (or other read-only) statement' }],
  options: [
    { flags: '--schema', description: 'print the CREATE statements of the tables', defaultValue: false },
    ...withFields(OUTPUT_OPTIONS, "id,name (the statement's own columns)"),
    ...LOCAL_LIMIT_OPTIONS,
    {
      flags: '--timeout <seconds>',
      description: 'time limit of the statement (then exit 1)',
      defaultValue: '30',
      global: true,
    },
    ...MIRROR_OPTIONS,
  ],
  examples: [
    'mtg sql "SELECT name, created_at FROM meetings WHERE deleted_at IS NULL\n  ORDER BY created_at DESC LIMIT 5"',
    'mtg sql "SELECT json ->> \'$.title\' AS title FROM action_items\n  WHERE mine = 1" --format csv',
    'mtg sql --schema',
  ],
});
