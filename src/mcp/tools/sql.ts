// `sql`: one read-only statement on the mirror, rows as `mtg sql --json` prints them. The statement
// runs in a child process (src/mirror/sql-runner.ts), so a runaway one blocks no other call and no
// shutdown: past the server's bound (--timeout), on the client's cancel or when the server stops,
// it is killed.

import { z } from 'zod';
import { SqlError } from '../../mirror/sql.js';
import { SqlTimeoutError } from '../../mirror/sql-runner.js';
import { UsageError } from '../../shared/errors.js';
import { cutToTokens, firstWhole, ITEMS_BOUND, jsonCost, shortenStrings, takePage } from '../paging.js';
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
    'Returns {columns, rows, truncated}; truncated when rows were left out (limit, default 200, or the size bound: ' +
    'note says from which row to read on) or a value too long was cut (cut names its row and column: read it with substr). ' +
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
      const read = await sqlOf(() => firstRows(rows(), limit));
      return ok(sqlResult(columns, read));
    }),
});

/** Room that a row alone past the bound needs to show a useful part of its long value(s). */
const MIN_CUT_ROOM = 2_000;
/** The most a row alone past the bound is cut to: a quarter of a page, leaving room for the rows after it. */
const CUT_ROOM = Math.floor(ITEMS_BOUND / 4);

/** Cut cells (and rows that lost columns) named at most. */
const CUT_LISTED = 10;
/**
 * What `cut` may take (tokens). It and the note come after the page is measured, within the 1,000
 * tokens the page's items leave of the bound (the note's parts are a few sentences, its rows at
 * most CUT_LISTED); a cell's column name is the statement's, of any length and any characters.
 */
const CUT_LIST_ROOM = 300;
/**
 * What a column's name may cost in `cut` (tokens): about 64 characters of a name of words, 6 of
 * control characters (cut to 64 characters, those cost 384 tokens, and cut listed none); a cut
 * cell of it takes about 55 of CUT_LIST_ROOM, so the first is always listed.
 */
const CUT_NAME_TOKENS = 40;
/** What the column names may take (tokens): 2,000 long names (SQLite's most) were 26,000 tokens, beside the page. */
const COLUMNS_ROOM = CUT_ROOM;

/**
 * A cell cut to fit: its row (0-based, in `rows`), column, its column's place among the statement's
 * (0-based: a name cut here is no name to substr(), an alias is), and the whole value's length.
 */
interface CutCell {
  row: number;
  column: string;
  index: number;
  length: number;
}

/**
 * The result of the rows read: those that fit in the bound, in order (takePage), beside the column
 * names (the first ones, within COLUMNS_ROOM, and how many more). A row that alone passes it (a
 * whole transcript's JSON) is kept, its long values cut to the room left (a quarter of a page at
 * most) and each cut cell named with its whole length: the statement has no next page, so a row
 * left out would be lost to the assistant. A row past the room left that would fit alone ends the
 * page, and the note says from which row to read on.
 */
function sqlResult(columns: unknown, { read, stop }: FirstRows): Obj {
  const names = jsonCost(columns) > COLUMNS_ROOM ? firstNames(columns, COLUMNS_ROOM) : columns;
  const { page, shortened } = takePage(read, {
    limit: read.length,
    map: exactValues,
    shorten: shortenStrings,
    cutAnywhere: { minRoom: MIN_CUT_ROOM, maxRoom: CUT_ROOM },
    bound: ITEMS_BOUND - jsonCost(names),
  });
  const cut: CutCell[] = [];
  const narrowed: string[] = [];
  for (const row of shortened) {
    const whole = exactValues(read[row]!);
    const sent = page[row]!;
    let leftOut = 0;
    for (const [index, column] of Object.keys(whole).entries()) {
      // A column left out of the row is no cell to substr(): the row says how many (its …[cut]).
      if (!Object.hasOwn(sent, column)) leftOut++;
      else if (valueLength(whole[column]) !== valueLength(sent[column]))
        cut.push({ row, column, index, length: valueLength(whole[column]) });
    }
    if (leftOut > 0) narrowed.push(`row ${row}: ${leftOut} of its ${Object.keys(whole).length} columns`);
  }
  const leftBySize = page.length < read.length || stop === 'size';
  const result: Obj = {
    columns: names,
    rows: page,
    truncated: leftBySize || stop === 'limit' || cut.length > 0 || narrowed.length > 0 || names !== columns,
  };
  const notes: string[] = [];
  if (names !== columns)
    notes.push(
      'columns was cut to fit (its "…[cut" entries say what was left out): each row names its columns',
    );
  if (cut.length > 0) {
    const listed = firstWithin(
      cut.slice(0, CUT_LISTED).map((c) => ({
        ...c,
        column: cutToTokens(c.column, CUT_NAME_TOKENS),
      })),
      CUT_LIST_ROOM,
    );
    result.cut = listed;
    notes.push(
      `a value too long to send whole was cut (it ends with …[cut]; cut names its row, column (a long name cut: index is its place among the columns, from 0, to alias it), and whole length${cut.length > listed.length ? `, the first ${listed.length} of ${cut.length} cut cells` : ''}): select it in pieces with substr(column, start, length)`,
    );
  }
  if (narrowed.length > 0) {
    notes.push(
      `a row too wide to send whole lost columns (its "…[cut]" entry says how many), ${narrowed.slice(0, CUT_LISTED).join(', ')}${narrowed.length > CUT_LISTED ? `, and ${narrowed.length - CUT_LISTED} more rows` : ''} were left out: select fewer columns`,
    );
  }
  if (leftBySize) {
    notes.push(
      `rows after the first ${page.length} were left out by the size bound: read them with LIMIT/OFFSET ${page.length}, or fewer or shorter columns`,
    );
  }
  if (notes.length > 0) result.note = notes.join('; ');
  return result;
}

/**
 * The column names within `room`: the first ones whole (a name cut is no name to select), and how
 * many more; cut as any item only when not even the first fits whole. Cut as an item, the longest
 * names were cut first (64 of them), and the first ones came back ending with "…[cut]".
 */
function firstNames(columns: unknown, room: number): unknown {
  return (Array.isArray(columns) && firstWhole(columns, room)) || shortenStrings(columns, room);
}

/** The first of `items` whose JSON, as a list, costs at most `tokens`. */
function firstWithin<T>(items: T[], tokens: number): T[] {
  // The brackets, less the last item's comma.
  let used = 1;
  const taken: T[] = [];
  for (const item of items) {
    used += jsonCost(item) + 1;
    if (used > tokens) break;
    taken.push(item);
  }
  return taken;
}

/** A cell's length in characters (a BLOB's: its base64 text), to tell a cut one. */
function valueLength(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (v && typeof v === 'object' && typeof (v as Obj).encoded === 'string')
    return ((v as Obj).encoded as string).length;
  return -1;
}

/** Rows read, and why reading stopped: the statement ended, a row past the limit, or the size bound. */
interface FirstRows {
  read: Obj[];
  stop: 'end' | 'limit' | 'size';
}

/**
 * Up to `count` rows, fewer once their JSON costs more than a page holds; one row more is stepped
 * (not kept) to know whether any were left out. The rest is never stepped.
 */
async function firstRows(rows: AsyncIterable<Obj>, count: number): Promise<FirstRows> {
  const read: Obj[] = [];
  let used = 0;
  for await (const row of rows) {
    if (read.length >= count) return { read, stop: 'limit' };
    if (used > ITEMS_BOUND) return { read, stop: 'size' };
    read.push(row);
    // A row alone past the bound takes no more than it is cut to (sqlResult).
    const cost = jsonCost(exactValues(row)) + 1;
    used += cost > ITEMS_BOUND ? CUT_ROOM : cost;
  }
  return { read, stop: 'end' };
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
