// Issue 29, item 1: the sql tool of `mtg mcp` runs a statement apart from the server's event loop.
// A runaway one (a recursive CTE without end: one SQLite step that never returns to JavaScript)
// blocks no other call, is isError in one sentence past the server's bound, and the server goes on
// serving; `PRAGMA name = value` is isError while reading a PRAGMA works. In-process, over the
// SDK's in-memory transport; the process (stdin closed, signals mid-query): test/e2e/mcp-sql.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonCost } from '../../src/mcp/paging.js';
import { realTokens } from '../helpers/real-tokens.js';
import { type Connected, connect, type McpEnv, mcpEnv, storeTranscript } from './helpers.js';

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c';

let m: McpEnv;
const open: Connected[] = [];
beforeAll(async () => {
  m = await mcpEnv();
});
afterAll(async () => {
  for (const c of open) await c.close();
  await m?.sandbox.close();
});

async function server(sqlTimeoutMs: number): Promise<Connected> {
  const c = await connect(m.env, { sqlTimeoutMs });
  open.push(c);
  return c;
}

describe('the sql tool and a runaway statement', () => {
  it('blocks no other call: they answer while it runs', async () => {
    // A bound far beyond the test: the statement is still running when the other calls return.
    const c = await server(60_000);
    let settled = false;
    const runaway = c.call('sql', { query: RUNAWAY }).finally(() => {
      settled = true;
    });
    const status = await c.call('mirror_status');
    expect(status.isError, status.text).toBe(false);
    const count = await c.call('sql', { query: 'SELECT count(*) AS n FROM meetings' });
    expect(count.isError, count.text).toBe(false);
    expect(count.data.rows[0].n).toBeGreaterThan(0);
    const hits = await c.call('search', { query: 'the', limit: 1 });
    expect(hits.isError, hits.text).toBe(false);
    expect(settled).toBe(false);
    // Closing the server ends the statement (its process is killed); the call fails or says so.
    open.splice(open.indexOf(c), 1);
    await c.close();
    await runaway.catch(() => undefined);
  }, 60_000);

  it('past the bound it is isError in one sentence naming the bound, and the server goes on serving', async () => {
    const c = await server(1_000);
    const r = await c.call('sql', { query: RUNAWAY });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'the statement ran longer than its time limit of 1 s and was stopped; narrow it (a WHERE, a LIMIT) or ask another tool',
    );
    const after = await c.call('sql', { query: 'SELECT 1 AS one' });
    expect(after.isError, after.text).toBe(false);
    expect(after.data).toEqual({ columns: ['one'], rows: [{ one: 1 }], truncated: false });
  }, 60_000);

  it('rows of a statement that never ends are read only as far as the page needs', async () => {
    const c = await server(20_000);
    const r = await c.call('sql', {
      query: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c',
      limit: 5,
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.data).toEqual({ columns: ['x'], rows: [1, 2, 3, 4, 5].map((x) => ({ x })), truncated: true });
  }, 60_000);
});

describe('the sql tool and PRAGMA', () => {
  it('a PRAGMA that sets a value is isError, and nothing of it stays; reading a PRAGMA works', async () => {
    const c = await server(20_000);
    for (const query of [
      'PRAGMA mmap_size=2000000000',
      'PRAGMA mmap_size(2000000000)',
      'PRAGMA cache_size = 1',
    ]) {
      const r = await c.call('sql', { query });
      expect(r.isError, query).toBe(true);
      expect(r.text).toMatch(/^the sql tool only reads: PRAGMA \w+ with a value would change a setting/);
    }
    const mmap = await c.call('sql', { query: 'PRAGMA mmap_size' });
    expect(mmap.data.rows).toEqual([{ mmap_size: 0 }]);
    const info = await c.call('sql', { query: 'PRAGMA table_info(meetings)' });
    expect(info.isError, info.text).toBe(false);
    expect(info.data.rows.map((r: { name: string }) => r.name)).toContain('json');
  }, 60_000);
});

/** The meetings with a stored transcript, in ID order. */
async function transcriptIds(c: Connected): Promise<string[]> {
  const list = await c.call('sql', { query: 'SELECT meeting_id FROM transcripts ORDER BY meeting_id' });
  return (list.data.rows as { meeting_id: string }[]).map((r) => r.meeting_id);
}

/** `count` transcript entries, each a sentence said `times` over. */
const longEntries = (count: number, times: number) =>
  Array.from({ length: count }, (_, i) => ({
    speaker: 'Dana',
    text: `entry ${i}: ${'the budget for the remote control launch, '.repeat(times)}`,
    timestamp: i * 15,
  }));

describe('the sql tool and a cell alone past the size bound', () => {
  it('cuts the cell, keeps its row and the rows after it, and names the cell and its whole length', async () => {
    const c = await server(20_000);
    const ids = await transcriptIds(c);
    expect(ids.length).toBeGreaterThan(2);
    // Not the first row: a page shortened only its first item, and left a later one out unsaid.
    const at = Math.floor(ids.length / 2);
    const entries = longEntries(3_000, 7);
    storeTranscript(m.dataDir, ids[at]!, entries);
    const whole = JSON.stringify(entries);
    expect(whole.length).toBeGreaterThan(800_000);

    const r = await c.call('sql', {
      query: 'SELECT meeting_id, json FROM transcripts ORDER BY meeting_id',
      limit: 1_000,
    });
    expect(r.isError, r.text).toBe(false);
    expect(realTokens(r.text)).toBeLessThanOrEqual(20_000);
    expect(r.data.rows.map((row: { meeting_id: string }) => row.meeting_id)).toEqual(ids);
    const cell = r.data.rows[at].json as string;
    expect(cell).toMatch(/…\[cut\]$/);
    // Cut to fit, not to nothing: a useful part of it stays.
    expect(cell.length).toBeGreaterThan(5_000);
    const kept = cell.length - '…[cut]'.length;
    expect(whole.startsWith(cell.slice(0, kept))).toBe(true);
    expect(r.data.truncated).toBe(true);
    expect(r.data.cut).toEqual([{ row: at, column: 'json', index: 1, length: whole.length }]);
    expect(r.data.note).toMatch(/substr\(/);
    // What the note says works: the rest of the cell, read in pieces.
    const rest = await c.call('sql', {
      query: `SELECT substr(json, ${kept + 1}, 100) AS piece FROM transcripts WHERE meeting_id = '${ids[at]}'`,
    });
    expect(rest.data.rows[0].piece).toBe(whole.slice(kept, kept + 100));
  }, 60_000);
});

describe('the sql tool and a row too wide to send whole', () => {
  it('leaves out columns, says so once, and names no left-out column as a cell to substr()', async () => {
    const c = await server(20_000);
    // 700 columns of 60 characters (too short to cut): about 28,000 tokens for one row.
    const cells = Array.from({ length: 700 }, (_, i) => `'${`${i}-`.padEnd(60, 'x')}' AS c${i}`);
    const r = await c.call('sql', { query: `SELECT ${cells.join(', ')}` });
    expect(r.isError, r.text).toBe(false);
    expect(realTokens(r.text)).toBeLessThanOrEqual(20_000);
    const row = r.data.rows[0] as Record<string, string>;
    const kept = Object.keys(row).filter((k) => k !== '…[cut]');
    expect(kept.length).toBeGreaterThan(20);
    expect(kept.length).toBeLessThan(700);
    expect(row['…[cut]']).toBe(`${700 - kept.length} more`);
    expect(r.data.truncated).toBe(true);
    // Every cell named as cut is in the row sent (a left-out column was listed, with substr()).
    for (const cell of r.data.cut ?? []) expect(row).toHaveProperty([cell.column]);
    expect(r.data.note).toContain(`row 0: ${700 - kept.length} of its 700 columns were left out`);
    expect(r.data.note).not.toMatch(/substr\(/);
  }, 60_000);
});

describe('the sql tool and a row of 2,000 columns (the most SQLite allows) of long names and values', () => {
  it('stays within the bound, the column names, the cut cells and the note included', async () => {
    const c = await server(20_000);
    const name = (i: number) => `a column with a long and descriptive name, number ${i}`;
    const cells = Array.from({ length: 2_000 }, (_, i) => `printf('%0200d', ${i}) AS "${name(i)}"`);
    const r = await c.call('sql', { query: `SELECT ${cells.join(', ')}` });
    expect(r.isError, r.text).toBe(false);
    expect(realTokens(r.text)).toBeLessThanOrEqual(20_000);
    expect(r.data.truncated).toBe(true);
    const row = r.data.rows[0] as Record<string, string>;
    const kept = Object.keys(row).filter((k) => k !== '…[cut]');
    expect(kept.length).toBeGreaterThan(10);
    // The columns left out are said once, as a count, not each.
    expect(row['…[cut]']).toBe(`${(2_000 - kept.length).toLocaleString('en')} more`);
    expect(r.data.note).toContain(`row 0: ${2_000 - kept.length} of its 2000 columns`);
    // The names: the first ones, and how many more.
    const columns = r.data.columns as string[];
    expect(columns.slice(0, 3)).toEqual([name(0), name(1), name(2)]);
    expect(columns.at(-1)).toMatch(/^…\[cut: [\d,]+ more\]$/);
    for (const cell of r.data.cut ?? []) expect(row).toHaveProperty([cell.column]);
  }, 60_000);
});

describe('the sql tool and the names of cut cells', () => {
  it('lists at least the first cut cell, its name cut to what a name may cost, whatever its characters', async () => {
    const c = await server(20_000);
    // A name of 100 control characters (6 tokens each, escaped): cut to 64 characters it cost 384
    // tokens, past the 300 of the list, and cut came out [] ("the first 0 of 3 cut cells").
    const control = '\u0001'.repeat(100);
    const cells = [0, 1, 2].map((i) => `hex(zeroblob(30000)) AS "${control}${i}"`);
    const r = await c.call('sql', { query: `SELECT ${cells.join(', ')}` });
    expect(r.isError, r.text).toBe(false);
    expect(realTokens(r.text)).toBeLessThanOrEqual(20_000);
    const cut = r.data.cut as { row: number; column: string; index: number; length: number }[];
    expect(cut.length).toBeGreaterThan(0);
    expect(cut[0]).toMatchObject({ row: 0, length: 60_000 });
    expect(cut[0]!.column).toMatch(/^\u0001+…\[cut\]$/);
    // The name cut is no name to write again: its place among the columns says which to alias.
    expect(cut.map((cell) => cell.index)).toEqual([0, 1, 2].slice(0, cut.length));
    expect(r.data.note).not.toContain('the first 0 of');
  }, 60_000);

  it('lists the first cut cells within its room, and says of how many', async () => {
    const c = await server(20_000);
    const name = (i: number) => `${'a column with a long and descriptive name '.repeat(3)}${i}`;
    const cells = Array.from({ length: 12 }, (_, i) => `hex(zeroblob(20000)) AS "${name(i)}"`);
    const r = await c.call('sql', { query: `SELECT ${cells.join(', ')}` });
    expect(r.isError, r.text).toBe(false);
    const cut = r.data.cut as { row: number; column: string; length: number }[];
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.length).toBeLessThan(12);
    // What the list may take beside the page (CUT_LIST_ROOM).
    expect(jsonCost(cut)).toBeLessThanOrEqual(300);
    expect(r.data.note).toContain(`the first ${cut.length} of 12 cut cells`);
  }, 60_000);
});

describe('the sql tool and column names past their room', () => {
  it('keeps the first names whole (usable in SQL), and says how many more', async () => {
    const c = await server(20_000);
    // 200 names of about 100 tokens: the longest texts were cut first, 64 names of them, and the
    // first names came back ending with "…[cut]", no column's name.
    const name = (i: number) =>
      `${String(i).padStart(3, '0')} ${'a long and descriptive column name, '.repeat(12)}`;
    const cells = Array.from({ length: 200 }, (_, i) => `${i} AS "${name(i)}"`);
    const r = await c.call('sql', { query: `SELECT ${cells.join(', ')}` });
    expect(r.isError, r.text).toBe(false);
    expect(realTokens(r.text)).toBeLessThanOrEqual(20_000);
    const columns = r.data.columns as string[];
    const kept = columns.slice(0, -1);
    expect(kept.length).toBeGreaterThan(5);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => name(i)));
    expect(columns.at(-1)).toBe(`…[cut: ${200 - kept.length} more]`);
    // A kept name works in SQL as sent.
    const again = await c.call('sql', { query: `SELECT "${kept[1]}" FROM (SELECT ${cells.join(', ')})` });
    expect(again.data.rows).toEqual([{ [name(1)]: 1 }]);
  }, 60_000);
});

describe('the sql tool and rows left out by the size bound', () => {
  it('says how many rows came and from which to read on, and that OFFSET gives the next ones', async () => {
    const c = await server(20_000);
    const ids = await transcriptIds(c);
    // Each row fits a page alone (about 5,000 tokens), not all together.
    const entries = longEntries(60, 4);
    for (const id of ids) storeTranscript(m.dataDir, id, entries);
    const query = 'SELECT meeting_id, json FROM transcripts ORDER BY meeting_id';
    const r = await c.call('sql', { query });
    expect(r.isError, r.text).toBe(false);
    const sent = r.data.rows.length as number;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(ids.length);
    expect(r.data.truncated).toBe(true);
    expect(r.data.cut).toBeUndefined();
    expect(r.data.note).toContain(`rows after the first ${sent} were left out by the size bound`);
    expect(r.data.note).toContain(`OFFSET ${sent}`);
    const next = await c.call('sql', { query: `${query} LIMIT 1 OFFSET ${sent}` });
    expect(next.data.rows[0].meeting_id).toBe(ids[sent]);
  }, 60_000);
});
