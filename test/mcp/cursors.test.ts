// Cursors of `mtg mcp`'s listing tools (contract: "opaque, stable (the same cursor gives the same
// page) and rejected cleanly when malformed"): a sync or a write between two pages neither repeats
// nor skips an item of list_meetings and list_action_items; a search cursor from before a change is
// refused with a sentence saying to search again; a made-up, edited or borrowed cursor is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/mirror/driver.js';
import { type Connected, connect, type McpEnv, mcpEnv, storeTranscript } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: tool results are JSON, read by path in assertions
type Obj = Record<string, any>;

let m: McpEnv;
let c: Connected;

beforeAll(async () => {
  m = await mcpEnv({ sizes: { meetings: 24, actionItems: 40, people: 12, companies: 3 } });
  c = await connect(m.env, { allowWrites: true });
});
afterAll(async () => {
  await c?.close();
  await m?.sandbox.close();
});

async function page(tool: string, args: Obj) {
  const r = await c.call(tool, args);
  expect(r.isError, r.text).toBe(false);
  return r.data as Obj;
}

/** The rest of a listing from `cursor` on, following nextCursor (bounded). */
async function rest(tool: string, args: Obj, key: string, cursor: string | undefined): Promise<Obj[]> {
  const items: Obj[] = [];
  for (let pages = 1; cursor && pages <= 200; pages++) {
    const data = await page(tool, { ...args, cursor });
    items.push(...data[key]);
    cursor = data.nextCursor;
  }
  expect(cursor).toBeUndefined();
  return items;
}

/** Churn rounds until one creates a meeting (bounded), then one `mtg sync`. */
async function syncWithNewMeetings() {
  for (let i = 0; i < 50; i++) if (m.sandbox.churn(1).meetings.created.length > 0) break;
  await m.sync();
}

const edit = (cursor: string, change: (state: Obj) => void) => {
  const state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  change(state);
  return Buffer.from(JSON.stringify(state)).toString('base64url');
};

describe('list_meetings: keyset cursors', () => {
  it('a sync that adds meetings between two pages: page 2 continues after page 1, no duplicate, no gap', async () => {
    const args = { limit: 5 };
    const first = await page('list_meetings', args);
    const firstIds = first.meetings.map((x: Obj) => x.id);
    const last = first.meetings.at(-1);
    await syncWithNewMeetings();
    const now = m.sandbox.snapshot().meetings;
    const older = now.filter((x) => Date.parse(x.createdAt as string) < Date.parse(last.createdAt));
    const second = await page('list_meetings', { ...args, cursor: first.nextCursor });
    expect(second.meetings.map((x: Obj) => x.id)).toEqual(older.slice(0, 5).map((x) => x.id));
    for (const x of second.meetings) expect(firstIds).not.toContain(x.id);
    // The same cursor again: the same page.
    expect(await page('list_meetings', { ...args, cursor: first.nextCursor })).toEqual(second);
    // Paging on to the end joins to the whole listing after page 1.
    const tail = await rest('list_meetings', args, 'meetings', first.nextCursor);
    expect(tail.map((x) => x.id)).toEqual(older.map((x) => x.id));
  });
});

describe('list_action_items: keyset cursors', () => {
  it('an item created between two pages is listed once, and page 2 continues after page 1', async () => {
    const args = { status: 'all', limit: 5 };
    const first = await page('list_action_items', args);
    const created = await c.call('create_action_item', { title: 'between the pages' });
    expect(created.isError, created.text).toBe(false);
    const second = await page('list_action_items', { ...args, cursor: first.nextCursor });
    const seen = [...first.actionItems, ...second.actionItems].map((x: Obj) => String(x.id));
    expect(new Set(seen).size).toBe(seen.length);
    expect(await page('list_action_items', { ...args, cursor: first.nextCursor })).toEqual(second);
    // Page 1 and the rest: every item of the mirror once, the new one included.
    const tail = await rest('list_action_items', args, 'actionItems', first.nextCursor);
    const ids = [...first.actionItems, ...tail].map((x: Obj) => String(x.id));
    const expected = [...m.sandbox.snapshot().actionItems.map((x) => String(x.id))];
    expect([...ids].sort()).toEqual([...expected].sort());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('pages go by ID (9 before 10) whatever order the service listed the items in, each item once', async () => {
    // The mirror's listing order turned around (the service's last item first): a page is still
    // the lowest IDs after the cursor, though only a page's worth is kept while the rest is read.
    const reorder = (sql: string) => {
      const db = openDb(`${m.dataDir}/default.db`);
      try {
        db.prepare(sql).run();
      } finally {
        db.close();
      }
    };
    reorder('UPDATE action_items SET position = -position');
    try {
      const byId = m.sandbox
        .snapshot()
        .actionItems.map((x) => String(x.id))
        .sort((a, b) => Number(a) - Number(b));
      expect(byId).toContain('10');
      for (const limit of [1, 7, 200]) {
        const args = { status: 'all', limit };
        const first = await page('list_action_items', args);
        expect(first.actionItems).toHaveLength(Math.min(limit, byId.length));
        const tail = await rest('list_action_items', args, 'actionItems', first.nextCursor);
        expect([...first.actionItems, ...tail].map((x: Obj) => String(x.id))).toEqual(byId);
      }
    } finally {
      reorder('UPDATE action_items SET position = -position');
    }
  });
});

describe('search: a cursor from before a change', () => {
  it('the same cursor gives the same page; after a sync that changed the mirror, one sentence saying to search again', async () => {
    const args = { query: 'the', limit: 3 };
    const first = await page('search', args);
    expect(first.nextCursor).toBeTypeOf('string');
    const second = await page('search', { ...args, cursor: first.nextCursor });
    expect(await page('search', { ...args, cursor: first.nextCursor })).toEqual(second);
    await syncWithNewMeetings();
    const stale = await c.call('search', { ...args, cursor: first.nextCursor });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/changed.*repeat the search without a cursor/);
    expect(stale.text).not.toMatch(/\n/);
    // Started again, the search pages as before.
    const again = await page('search', args);
    expect((await page('search', { ...args, cursor: again.nextCursor })).results.length).toBeGreaterThan(0);
  });
});

describe('get_transcript: a cursor from before the transcript changed', () => {
  it('the same cursor gives the same page; once a sync replaced the transcript, one sentence saying to read it again', async () => {
    const id = m.sandbox.snapshot().meetings[3]!.id;
    const entries = Array.from({ length: 6 }, (_, i) => ({
      speaker: 'B',
      text: `${i} `.repeat(400),
      timestamp: i,
    }));
    storeTranscript(m.dataDir, id, entries);
    const args = { id, maxChars: 1_000 };
    const first = await page('get_transcript', args);
    const second = await page('get_transcript', { ...args, cursor: first.nextCursor });
    expect(await page('get_transcript', { ...args, cursor: first.nextCursor })).toEqual(second);
    // As a sync that fetched it again stores it: one entry more at the start.
    storeTranscript(m.dataDir, id, [{ speaker: 'C', text: 'earlier', timestamp: 0 }, ...entries]);
    const stale = await c.call('get_transcript', { ...args, cursor: first.nextCursor });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/transcript .*changed.*without a cursor/);
    expect(stale.text).not.toMatch(/\n/);
  });
});

describe('a made-up, edited or borrowed cursor is refused', () => {
  it.each([
    ['search', { query: 'the', limit: 2 }, { query: 'a*', limit: 2 }],
    ['list_meetings', { limit: 2 }, { limit: 2, since: '3650d' }],
    ['list_action_items', { status: 'all', limit: 2 }, { status: 'done', limit: 2 }],
    ['get_transcript', 'meeting', 'other meeting'],
  ] as const)('%s', async (tool, given, other) => {
    const meetings = m.sandbox.snapshot().meetings;
    // Long enough for pages of 1,000 characters.
    const long = Array.from({ length: 8 }, (_, i) => ({
      speaker: 'A',
      text: 'word '.repeat(100),
      timestamp: i,
    }));
    for (const x of meetings.slice(0, 2)) storeTranscript(m.dataDir, x.id, long);
    const args = (a: Obj | string): Obj =>
      typeof a === 'string' ? { id: meetings[a === 'meeting' ? 0 : 1]!.id, maxChars: 1_000 } : (a as Obj);
    const first = await page(tool, args(given));
    const cursor = first.nextCursor as string;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const edited = edit(cursor, (s) => {
      // Whatever the payload holds, change one value in it.
      const text = JSON.stringify(s);
      const changed = text.replace(/\d(?=[^\d]*$)/, (d) => String((Number(d) + 1) % 10));
      Object.assign(s, JSON.parse(changed));
    });
    expect(edited).not.toBe(cursor);
    for (const bad of [
      edited,
      Buffer.from(JSON.stringify({ f: 'made-up', o: 3 })).toString('base64url'),
      cursor.slice(0, -2),
    ]) {
      const r = await c.call(tool, { ...args(given), cursor: bad });
      expect(r.isError, bad).toBe(true);
      expect(r.text).toMatch(/cursor/);
      expect(r.text).not.toMatch(/\n/);
    }
    const borrowed = await c.call(tool, { ...args(other), cursor });
    expect(borrowed.isError).toBe(true);
    expect(borrowed.text).toMatch(/cursor belongs to other arguments/);
  });
});
