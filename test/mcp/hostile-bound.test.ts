// Every tool's result stays within the contract's bound (20,000 tokens as cl100k and o200k count
// the text block the client gets) when the service's text is hostile: quotes, backslashes and
// controls that JSON escapes (a control costs six characters there), lone surrogates (escaped too),
// astral and CJK characters, Armenian and stacked combining marks (two tokens a character). And an
// item shortened to fit keeps most of the room: shortening measures a string by its escaped JSON,
// as the client gets it (measured by its raw text, it cut these to a fraction of the room).
import { afterAll, beforeAll, describe, expect, it as plainIt } from 'vitest';
import { ITEMS_BOUND, NAME_CHARS } from '../../src/mcp/paging.js';
import { estimateTokens } from '../../src/mcp/tokens.js';
import { openDb } from '../../src/mirror/driver.js';
import { generateStore } from '../../src/sandbox/data.js';
import { safePrefix } from '../../src/shared/clip.js';
import { realTokens } from '../helpers/real-tokens.js';
import { SMALL } from '../mirror/helpers.js';
import {
  type Connected,
  connect,
  mcpTest as it,
  type McpEnv,
  mcpEnv,
  storeTranscript,
  updateMirror,
} from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: tool results are JSON, read by path in assertions
type Obj = Record<string, any>;

const CAP = 20_000;
const HOSTILE =
  '"quoted" \\ back\\\\slash \u0001\u0002\u001f\u0000 😀𠀀 我们 \ud800 x\udc00 Մենք Z\u0301\u0316\u0337 ';
/** Hostile text of about `tokens` tokens as JSON. */
const hostile = (tokens: number) =>
  HOSTILE.repeat(Math.ceil(tokens / estimateTokens(JSON.stringify(HOSTILE))));
/** The mark of a cut string. */
const CUT = '…[cut]';

/** A value as the mirror holds it (lone surrogates and NULs as SQLite gives them back). */
function stored(m: McpEnv, sql: string, ...values: unknown[]): string {
  const db = openDb(`${m.dataDir}/default.db`);
  try {
    return Object.values(db.prepare(sql).get(...(values as never[])) as Obj)[0] as string;
  } finally {
    db.close();
  }
}

/**
 * Calls a tool and reads its text block as the client does: from the serialized JSON-RPC answer
 * (lone surrogates and controls as they travel); the text's real tokens within the bound.
 */
async function bounded(c: Connected, name: string, args: Obj): Promise<{ data: Obj; text: string }> {
  const result = await c.client.callTool({ name, arguments: args });
  const message = JSON.stringify({ jsonrpc: '2.0', id: 1, result });
  const received = JSON.parse(message).result as {
    isError?: boolean;
    content: { type: string; text: string }[];
  };
  const text = received.content.find((b) => b.type === 'text')!.text;
  expect(received.isError, text).toBeFalsy();
  expect(realTokens(text), name).toBeLessThanOrEqual(CAP);
  return { data: JSON.parse(text) as Obj, text };
}

/** `cut` is a prefix of `whole` marked as cut, and keeps at least `share` of `room` tokens. */
function keptOf(cut: string, whole: string, room: number, share = 0.9): void {
  expect(cut.endsWith(CUT)).toBe(true);
  const kept = cut.slice(0, -CUT.length);
  expect(whole.startsWith(kept)).toBe(true);
  expect(estimateTokens(JSON.stringify(kept))).toBeGreaterThan(share * room);
}

describe('hostile text: every tool within the bound, an item cut to fit keeps most of the room', () => {
  it('get_meeting: notes past the bound', async ({ m, c }) => {
    const id = m.sandbox.snapshot().meetings[0]!.id as string;
    const notes = hostile(28_000);
    updateMirror(
      m.dataDir,
      "UPDATE meetings SET json = json_set(json, '$.notes', ?) WHERE id = ?",
      notes,
      id,
    );
    const { data } = await bounded(c, 'get_meeting', { id });
    expect(data.truncated).toBe(true);
    keptOf(
      data.meeting.notes,
      stored(m, "SELECT json ->> '$.notes' FROM meetings WHERE id = ?", id),
      ITEMS_BOUND,
    );
  });

  it('list_meetings: a name past the bound is a label, cut to NAME_CHARS and marked; the page goes on', async ({
    m,
    c,
  }) => {
    const first = (await bounded(c, 'list_meetings', { limit: 1 })).data.meetings[0];
    const name = hostile(28_000);
    updateMirror(
      m.dataDir,
      "UPDATE meetings SET json = json_set(json, '$.name', ?) WHERE id = ?",
      name,
      first.id,
    );
    const { data } = await bounded(c, 'list_meetings', { limit: 100 });
    expect(data.meetings[0].id).toBe(first.id);
    const whole = stored(m, "SELECT json ->> '$.name' FROM meetings WHERE id = ?", first.id);
    expect(data.meetings[0].name).toBe(`${safePrefix(whole, NAME_CHARS)}${CUT}`);
    expect(data.meetings.length).toBeGreaterThan(1);
  });

  it('changes: an event whose item is past the bound', async ({ m, c }) => {
    const first = (await bounded(c, 'changes', { after: 0, limit: 1 })).data.changes[0];
    const notes = hostile(28_000);
    updateMirror(
      m.dataDir,
      "UPDATE changes SET item = json_set(coalesce(item, '{}'), '$.notes', ?) WHERE seq = ?",
      notes,
      first.seq,
    );
    const { data } = await bounded(c, 'changes', { after: 0, limit: 1_000 });
    expect(data.changes[0].seq).toBe(first.seq);
    expect(data.changes[0].truncated).toBe(true);
    const whole = stored(m, "SELECT item ->> '$.notes' FROM changes WHERE seq = ?", first.seq);
    keptOf(data.changes[0].item.notes, whole, ITEMS_BOUND);
  });

  it('list_action_items: a description past the bound', async ({ m, c }) => {
    const first = (await bounded(c, 'list_action_items', { status: 'all', limit: 1 })).data.actionItems[0];
    const description = hostile(28_000);
    updateMirror(
      m.dataDir,
      "UPDATE action_items SET json = json_set(json, '$.description', ?) WHERE id = ?",
      description,
      String(first.id),
    );
    const { data } = await bounded(c, 'list_action_items', { status: 'all', limit: 200 });
    expect(data.actionItems[0].id).toBe(first.id);
    expect(data.actionItems[0].truncated).toBe(true);
    const whole = stored(
      m,
      "SELECT json ->> '$.description' FROM action_items WHERE id = ?",
      String(first.id),
    );
    keptOf(data.actionItems[0].description, whole, ITEMS_BOUND);
  });

  it('sql: a cell past the bound, after other rows', async ({ m, c }) => {
    const notes = hostile(28_000);
    const id = m.sandbox.snapshot().meetings[1]!.id as string;
    updateMirror(
      m.dataDir,
      "UPDATE meetings SET json = json_set(json, '$.notes', ?) WHERE id = ?",
      notes,
      id,
    );
    const { data } = await bounded(c, 'sql', {
      // The others' notes short (another test made one long): only this cell passes the bound.
      query: `SELECT id, CASE id WHEN '${id}' THEN json ->> '$.notes' ELSE substr(json ->> '$.notes', 1, 100) END AS notes FROM meetings ORDER BY id = '${id}', id`,
    });
    const row = data.rows.length - 1;
    expect(data.rows[row].id).toBe(id);
    const whole = stored(m, "SELECT json ->> '$.notes' FROM meetings WHERE id = ?", id);
    expect(data.cut).toEqual([{ row, column: 'notes', index: 1, length: whole.length }]);
    // A quarter of a page at most, leaving room for the rows after it.
    keptOf(data.rows[row].notes, whole, Math.floor(ITEMS_BOUND / 4));
  });

  it('get_transcript: pages of hostile entries, joined to the whole', async ({ m, c }) => {
    const id = m.sandbox.snapshot().meetings[2]!.id as string;
    const entries = Array.from({ length: 40 }, (_, i) => ({
      speaker: `Dana ${HOSTILE}`,
      text: `${i} ${hostile(2_000)}`,
      timestamp: i,
    }));
    // And one entry past the bound alone: sent in pieces.
    entries.push({ speaker: 'Eve', text: hostile(45_000), timestamp: 99 });
    storeTranscript(m.dataDir, id, entries);
    const texts: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const { data } = await bounded(c, 'get_transcript', {
        id,
        maxChars: 80_000,
        ...(cursor ? { cursor } : {}),
      });
      let previous: Obj | undefined;
      for (const e of data.entries as Obj[]) {
        if (e.continued && previous === undefined) texts[texts.length - 1] += e.text;
        else texts.push(e.text);
        previous = e;
      }
      cursor = data.nextCursor;
      if (!cursor) break;
    }
    expect(cursor).toBeUndefined();
    expect(texts).toEqual(entries.map((e) => e.text));
  });

  it('get_transcript and get_meeting: Armenian and stacked combining marks (two tokens a character) within the bound', async ({
    m,
    c,
  }) => {
    const id = m.sandbox.snapshot().meetings[4]!.id as string;
    const said = 'Մենք որոշեցինք, որ վահանակը պետք է ունենա ավելի քիչ կոճակներ։ Z\u0301\u0316\u0337algo ';
    const entries = Array.from({ length: 300 }, (_, i) => ({
      speaker: 'Արամ',
      text: said.repeat(20),
      timestamp: i,
    }));
    storeTranscript(m.dataDir, id, entries);
    const first = await bounded(c, 'get_transcript', { id, maxChars: 80_000 });
    expect(first.data.nextCursor).toBeDefined();
    updateMirror(
      m.dataDir,
      "UPDATE meetings SET json = json_set(json, '$.notes', ?) WHERE id = ?",
      said.repeat(1_500),
      id,
    );
    const meeting = await bounded(c, 'get_meeting', { id });
    expect(meeting.data.truncated).toBe(true);
  });

  it('a meeting of 3,000 attendees and an object of 3,000 keys: list_meetings and get_meeting within the bound, saying how many were left out', async ({
    m,
    c,
  }) => {
    const first = (await bounded(c, 'list_meetings', { limit: 1 })).data.meetings[0];
    const attendees = Array.from({ length: 3_000 }, (_, i) => ({
      name: `Person number ${i} of the town hall`,
      email: `p${i}@example.com`,
    }));
    const extra = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`key_${i}_of_many`, i]));
    updateMirror(
      m.dataDir,
      "UPDATE meetings SET json = json_set(json, '$.attendees', json(?), '$.extra', json(?)) WHERE id = ?",
      JSON.stringify(attendees),
      JSON.stringify(extra),
      first.id,
    );
    const list = (await bounded(c, 'list_meetings', { limit: 20 })).data.meetings[0];
    expect(list.id).toBe(first.id);
    const listed = list.attendees as unknown[];
    expect(listed.at(-1)).toMatch(/^…\[cut: [\d,]+ more\]$/);
    expect(listed.length).toBeGreaterThan(100);
    expect(listed.slice(0, 3)).toEqual(attendees.slice(0, 3).map((a) => ({ name: a.name, email: a.email })));

    const { data } = await bounded(c, 'get_meeting', { id: first.id });
    expect(data.truncated).toBe(true);
    expect(data.meeting.id).toBe(first.id);
    const kept = [data.meeting.attendees, Object.keys(data.meeting.extra)].map((l) => l.at(-1));
    expect(kept.some((last) => /^…\[cut/.test(String(last)))).toBe(true);
  });

  it('get_transcript: a speaker of 200,000 characters is cut and marked, each page within the bound', async ({
    m,
    c,
  }) => {
    const id = m.sandbox.snapshot().meetings[5]!.id as string;
    const speaker = `Dana ${HOSTILE.repeat(5_000)}`;
    const entries = [
      { speaker, text: 'hello '.repeat(3_000), timestamp: 0 },
      { speaker: 'Eve', text: 'after', timestamp: 1 },
    ];
    storeTranscript(m.dataDir, id, entries);
    const { data } = await bounded(c, 'get_transcript', { id });
    expect(data.entries.map((e: Obj) => e.text)).toEqual(entries.map((e) => e.text));
    const said = data.entries[0].speaker as string;
    expect(said.endsWith(CUT)).toBe(true);
    expect(speaker.startsWith(said.slice(0, -CUT.length))).toBe(true);
    expect(data.entries[1].speaker).toBe('Eve');
  });

  it('the resource of a meeting: notes past the bound', async ({ m, c }) => {
    const id = m.sandbox.snapshot().meetings[3]!.id as string;
    updateMirror(
      m.dataDir,
      "UPDATE meetings SET json = json_set(json, '$.notes', ?) WHERE id = ?",
      `${HOSTILE}\n`.repeat(800),
      id,
    );
    const res = await c.client.readResource({ uri: `mtg://meetings/${id}` });
    const text = (res.contents[0] as { text: string }).text;
    expect(realTokens(text)).toBeLessThanOrEqual(CAP);
    expect(text).toMatch(/\[notes shortened: the first [\d,]+ of [\d,]+ characters/);
  });

  it('get_meeting: a key of 2 MB two levels down is left out there, the entries beside it at every level kept whole', async ({
    m,
    c,
  }) => {
    const id = m.sandbox.snapshot().meetings[6]!.id as string;
    // Keys are never cut: only leaving the entry out brings the meeting within the bound.
    // Beside it, a text of 600 words: it fits, and is not cut for the key's sake either.
    const beside = 'the budget is approved '.repeat(150);
    const meta = { notes: { ['k'.repeat(2_000_000)]: 1, small: 'stays' }, keep: beside };
    updateMirror(
      m.dataDir,
      "UPDATE meetings SET json = json_set(json, '$.meta', json(?), '$.after', 'after it') WHERE id = ?",
      JSON.stringify(meta),
      id,
    );
    try {
      const { data } = await bounded(c, 'get_meeting', { id });
      expect(data.truncated).toBe(true);
      expect(data.meeting.id).toBe(id);
      expect(data.meeting.meta).toEqual({ notes: { small: 'stays', '…[cut]': '1 more' }, keep: beside });
      expect(data.meeting.after).toBe('after it');
    } finally {
      updateMirror(
        m.dataDir,
        "UPDATE meetings SET json = json_remove(json, '$.meta', '$.after') WHERE id = ?",
        id,
      );
    }
  });
});

describe('a meeting whose name is 1,000,000 characters', () => {
  let m: McpEnv;
  let c: Connected;
  let id: string;
  const NAME = `Zanzibar offsite ${`budget review 我们 😀 ${HOSTILE}`.repeat(20_000)}`.slice(0, 1_000_000);

  beforeAll(async () => {
    // Synced from the service as any meeting: stored, indexed for search, logged as a change.
    const store = generateStore(11, SMALL);
    const meeting = store.meetings[0]!;
    meeting.name = NAME;
    id = String(meeting.id);
    // And the others long hostile names: a page of them is as much link as text.
    for (const other of store.meetings.slice(1)) other.name = `Quokka ${HOSTILE.repeat(40)}`;
    m = await mcpEnv({ store });
    c = await connect(m.env);
  });
  afterAll(async () => {
    await c?.close();
    await m?.sandbox.close();
  });

  type Link = { type: 'resource_link'; uri: string; name: string; title?: string };

  /**
   * The answer as the client gets it: its text block and its resource links together within the
   * bound, each link named by a short label (what a client lists and feeds the model).
   */
  async function answer(name: string, args: Obj): Promise<{ data: Obj; links: Link[] }> {
    const result = await c.client.callTool({ name, arguments: args });
    const received = JSON.parse(JSON.stringify({ jsonrpc: '2.0', id: 1, result })).result as {
      isError?: boolean;
      content: ({ type: 'text'; text: string } | Link)[];
    };
    const text = received.content.find((b) => b.type === 'text')!.text;
    expect(received.isError, text).toBeFalsy();
    const links = received.content.filter((b): b is Link => b.type === 'resource_link');
    for (const l of links) {
      for (const label of [l.name, l.title ?? '']) expect(label.length, name).toBeLessThanOrEqual(200);
    }
    const cost = (count: (s: string) => number) =>
      count(text) + links.reduce((sum, l) => sum + count(JSON.stringify(l)), 0);
    expect(cost(realTokens), name).toBeLessThanOrEqual(CAP);
    // And as the server estimates it (above the real count, for every script): links counted too.
    expect(cost(estimateTokens), name).toBeLessThanOrEqual(CAP);
    return { data: JSON.parse(text) as Obj, links };
  }

  /** The link to the meeting: its name the start of the name as shown, cut on a character and marked. */
  function labelled(links: Link[]): void {
    const link = links.find((l) => l.uri === `mtg://meetings/${encodeURIComponent(id)}`)!;
    expect(link.name.startsWith('Zanzibar offsite budget review 我们 😀')).toBe(true);
    expect(link.name.endsWith('…')).toBe(true);
    expect(link.name).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    // Never half a surrogate pair before the mark.
    expect(link.name.charCodeAt(link.name.length - 2)).not.toSatisfy(
      (u: number) => u >= 0xd800 && u <= 0xdbff,
    );
  }

  plainIt('get_meeting: the link named by a label, the answer within the bound', async () => {
    const { data, links } = await answer('get_meeting', { id });
    expect(data.truncated).toBe(true);
    expect(data.meeting.name).toBe(`${safePrefix(NAME, NAME_CHARS)}${CUT}`);
    expect(links).toHaveLength(1);
    labelled(links);
  });

  /** Every page of a listing, each answered within the bound with its links. */
  async function pages(name: string, args: Obj, key: string): Promise<{ items: Obj[]; links: Link[] }> {
    const items: Obj[] = [];
    const links: Link[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const r = await answer(name, { ...args, ...(cursor ? { cursor } : {}) });
      items.push(...(r.data[key] as Obj[]));
      links.push(...r.links);
      cursor = r.data.nextCursor;
      if (!cursor) break;
    }
    expect(cursor).toBeUndefined();
    return { items, links };
  }

  plainIt('list_meetings and search: the links named by labels, each page within the bound', async () => {
    const listed = await pages('list_meetings', { limit: 100 }, 'meetings');
    expect(listed.items.map((x) => x.id).sort()).toEqual(
      m.sandbox
        .snapshot()
        .meetings.map((x) => x.id)
        .sort(),
    );
    // A name is a label: cut far shorter than the bound.
    expect(listed.items.find((x) => x.id === id)!.name).toBe(`${safePrefix(NAME, NAME_CHARS)}${CUT}`);
    labelled(listed.links);
    for (const groupBy of ['passage', 'meeting']) {
      const found = await answer('search', { query: 'zanzibar offsite', groupBy, limit: 100 });
      expect(found.data.results[0].meetingId).toBe(id);
      // (The index gives a lone surrogate back as U+FFFDs: the start of the name, not its exact prefix.)
      const shown = found.data.results[0].meetingName as string;
      expect(shown.startsWith('Zanzibar offsite budget review')).toBe(true);
      expect(shown.endsWith(CUT)).toBe(true);
      expect(shown.length).toBeLessThanOrEqual(NAME_CHARS + CUT.length);
      labelled(found.links);
      const quokkas = await pages('search', { query: 'quokka', groupBy, limit: 100 }, 'results');
      expect(new Set(quokkas.items.map((h) => h.meetingId)).size).toBe(SMALL.meetings - 1);
    }
  });

  plainIt('changes: every event within the bound', async () => {
    const { data } = await answer('changes', { after: 0, limit: 1_000 });
    const event = (data.changes as Obj[]).find((e) => e.resource === 'meetings' && e.id === id)!;
    expect(event.truncated).toBe(true);
  });
});
