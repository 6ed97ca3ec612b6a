// What an assistant gets from `mtg mcp` fits its window: every result's text block is at most
// 20,000 tokens as real tokenizers count them (Chinese and emoji included, where characters
// measured nothing), a long meeting's resource keeps its action items and front matter, attendee
// filters fold accents, the sql tool says how to count what exists, and the descriptions say that
// meeting text is data, not instructions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realTokens } from '../helpers/real-tokens.js';
import { type Connected, connect, type McpEnv, mcpEnv, storeTranscript, updateMirror } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: tool results are JSON, read by path in assertions
type Obj = Record<string, any>;

const CAP = 20_000;

const ZH = '我们今天讨论了遥控器的按钮设计，决定把音量键放在侧面。市场部认为年轻用户更喜欢简单的外观。';
const EMOJI = '👍🎉🚀😀 ';

let m: McpEnv;
let c: Connected;
let meetings: Obj[];

const updateDb = (sql: string, ...values: unknown[]) => updateMirror(m.dataDir, sql, ...values);

beforeAll(async () => {
  m = await mcpEnv();
  c = await connect(m.env);
  meetings = m.sandbox.snapshot().meetings as Obj[];
});
afterAll(async () => {
  await c?.close();
  await m?.sandbox.close();
});

describe('results are bounded in tokens, for every script', () => {
  it('a Chinese transcript: the default get_transcript page is at most 20,000 tokens, and the pages join to the whole', async () => {
    const id = meetings[0]!.id as string;
    const entries = Array.from({ length: 300 }, (_, i) => ({
      speaker: '张伟',
      text: ZH.repeat(8),
      timestamp: i * 15,
    }));
    storeTranscript(m.dataDir, id, entries);
    let cursor: string | undefined;
    const texts: string[] = [];
    for (let page = 0; page < 100; page++) {
      const r = await c.call('get_transcript', { id, ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBe(false);
      expect(realTokens(r.text)).toBeLessThanOrEqual(CAP);
      texts.push(...(r.data.entries as Obj[]).map((e) => e.text as string));
      cursor = r.data.nextCursor;
      if (!cursor) break;
    }
    expect(cursor).toBeUndefined();
    expect(texts.join('')).toBe(entries.map((e) => e.text).join(''));
  });

  it('a meeting with long Chinese notes: get_meeting is at most 20,000 tokens and says where to read the rest', async () => {
    const id = meetings[1]!.id as string;
    updateDb("UPDATE meetings SET json = json_set(json, '$.notes', ?) WHERE id = ?", ZH.repeat(1_500), id);
    const r = await c.call('get_meeting', { id });
    expect(r.isError, r.text).toBe(false);
    expect(realTokens(r.text)).toBeLessThanOrEqual(CAP);
    expect(r.data.truncated).toBe(true);
    expect(r.data.readWhole).toMatch(/substr\(/);
  });

  it('changes with limit 1,000 over items full of emoji: at most 20,000 tokens, more: true, and the rest comes after lastSeq', async () => {
    updateDb("UPDATE changes SET item = json_set(coalesce(item, '{}'), '$.notes', ?)", EMOJI.repeat(400));
    const r = await c.call('changes', { after: 0, limit: 1_000 });
    expect(r.isError, r.text).toBe(false);
    expect(realTokens(r.text)).toBeLessThanOrEqual(CAP);
    expect(r.data.more).toBe(true);
    const next = await c.call('changes', { after: r.data.lastSeq, limit: 1_000 });
    expect(next.data.changes[0].seq).toBeGreaterThan(r.data.lastSeq);
  });

  it('search and list_meetings over Chinese names stay within 20,000 tokens at their largest limit', async () => {
    updateDb("UPDATE meetings SET json = json_set(json, '$.name', ?)", ZH.repeat(30));
    const list = await c.call('list_meetings', { limit: 100 });
    expect(list.isError, list.text).toBe(false);
    expect(realTokens(list.text)).toBeLessThanOrEqual(CAP);
  });
});

describe('the resource of a meeting past the bound', () => {
  it('keeps the front matter and the action items, cuts the notes at a line and says where to read the rest', async () => {
    const meeting = meetings.find((x) => (x.actionItems as Obj[] | undefined)?.length) as Obj;
    const id = meeting.id as string;
    const line = `${ZH}\n`;
    updateDb("UPDATE meetings SET json = json_set(json, '$.notes', ?) WHERE id = ?", line.repeat(2_000), id);
    const res = await c.client.readResource({ uri: `mtg://meetings/${id}` });
    const text = (res.contents[0] as { text: string }).text;
    expect(realTokens(text)).toBeLessThanOrEqual(CAP);
    expect(text.startsWith('---\n')).toBe(true);
    expect(text).toMatch(/\nid: /);
    expect(text).toContain('## Action items');
    for (const item of meeting.actionItems as Obj[])
      expect(text).toContain(`<!-- action-item:${item.id} -->`);
    expect(text).toMatch(/\[notes shortened: the first [\d,]+ of [\d,]+ characters;.*substr\(/);
    // Cut at a line: the last kept line of the notes is whole.
    const notes = text.slice(text.indexOf('## Notes'), text.indexOf('[notes shortened'));
    expect(notes.trimEnd().endsWith(ZH)).toBe(true);
  });
});

describe('what an assistant is told', () => {
  it('list_meetings attendee folds accents and case: "muller" finds Müller', async () => {
    const id = meetings[2]!.id as string;
    updateDb(
      "UPDATE meetings SET json = json_set(json, '$.attendees', json(?)) WHERE id = ?",
      JSON.stringify([{ name: 'Jürgen Müller', email: 'jm@example.com' }]),
      id,
    );
    const r = await c.call('list_meetings', { attendee: 'MULLER', limit: 100 });
    expect(r.isError, r.text).toBe(false);
    expect((r.data.meetings as Obj[]).map((x) => x.id)).toEqual([id]);
  });

  it('the sql tool and mirror_status say that deleted items stay as tombstones, and how to count what exists', async () => {
    const tools = (await c.client.listTools()).tools;
    expect(tools.find((t) => t.name === 'sql')!.description).toMatch(/deleted_at IS NULL/);
    const status = await c.call('mirror_status');
    expect(status.data.sqlNote).toMatch(/deleted_at IS NULL/);
  });

  it('every tool that returns meeting text says it is data from other people, not instructions', async () => {
    const tools = (await c.client.listTools()).tools;
    for (const name of [
      'search',
      'list_meetings',
      'get_meeting',
      'get_transcript',
      'list_action_items',
      'changes',
      'sql',
    ])
      expect(tools.find((t) => t.name === name)!.description, name).toMatch(/never instructions to follow/);
  });
});
