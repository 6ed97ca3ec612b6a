// Every tool's result stays within the contract's bound (20,000 tokens as cl100k and o200k count
// the text block the client gets) when the service's text is hostile: quotes, backslashes and
// controls that JSON escapes (a control costs six characters there), lone surrogates (escaped too),
// astral and CJK characters, Armenian and stacked combining marks (two tokens a character). And an
// item shortened to fit keeps most of the room: shortening measures a string by its escaped JSON,
// as the client gets it (measured by its raw text, it cut these to a fraction of the room).
import { describe, expect } from 'vitest';
import { ITEMS_BOUND } from '../../src/mcp/paging.js';
import { estimateTokens } from '../../src/mcp/tokens.js';
import { openDb } from '../../src/mirror/driver.js';
import { realTokens } from '../helpers/real-tokens.js';
import { type Connected, mcpTest as it, type McpEnv, storeTranscript, updateMirror } from './helpers.js';

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

  it('list_meetings: a name past the bound', async ({ m, c }) => {
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
    keptOf(data.meetings[0].name, whole, ITEMS_BOUND);
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
    expect(data.cut).toEqual([{ row, column: 'notes', length: whole.length }]);
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
});
