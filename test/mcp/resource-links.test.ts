// The resource links that search, list_meetings and get_meeting return beside their JSON name each
// meeting by its name, which is server text: a client lists these names as they are, so they carry
// no bidi override or control character, and a blank name gives way to the meeting's ID.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStore } from '../../src/sandbox/data.js';
import { SMALL } from '../mirror/helpers.js';
import { type Connected, connect, type McpEnv, mcpEnv, type Obj } from './helpers.js';

let m: McpEnv;
let c: Connected;
let hostile: Obj;
let blank: Obj;

const HOSTILE_NAME = 'Budget review \u202eevil\u202dtxt.exe\u001b[31m\n';
const SHOWN = 'Budget review eviltxt.exe';

beforeAll(async () => {
  // Synced from the service as the names a hostile or careless organizer gives.
  const store = generateStore(7, SMALL);
  [hostile, blank] = [store.meetings[0]!, store.meetings[1]!];
  hostile.name = HOSTILE_NAME;
  blank.name = '  \u200b ';
  m = await mcpEnv({ store });
  c = await connect(m.env);
});
afterAll(async () => {
  await c?.close();
  await m?.sandbox.close();
});

type Link = { type: string; uri: string; name: string };

async function links(tool: string, args: Obj): Promise<Map<string, string>> {
  const r = (await c.client.callTool({ name: tool, arguments: args })) as { content: Link[] };
  const byUri = new Map<string, string>();
  for (const l of r.content) if (l.type === 'resource_link') byUri.set(l.uri, l.name);
  return byUri;
}

const uriOf = (meeting: Obj) => `mtg://meetings/${encodeURIComponent(String(meeting.id))}`;
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

describe('resource link names', () => {
  it('list_meetings: a hostile name without bidi overrides or controls, a blank one as the ID', async () => {
    const byUri = await links('list_meetings', { limit: 100 });
    expect(byUri.get(uriOf(hostile))).toBe(SHOWN);
    expect(byUri.get(uriOf(blank))).toBe(String(blank.id));
    for (const name of byUri.values()) {
      expect(name).not.toMatch(UNSAFE);
      expect(name.trim()).not.toBe('');
    }
  });

  it('get_meeting and search: the same names', async () => {
    expect([...(await links('get_meeting', { id: String(hostile.id) })).values()]).toEqual([SHOWN]);
    expect([...(await links('get_meeting', { id: String(blank.id) })).values()]).toEqual([String(blank.id)]);
    const byUri = await links('search', { query: 'budget review', groupBy: 'meeting', limit: 100 });
    expect(byUri.get(uriOf(hostile))).toBe(SHOWN);
    for (const name of byUri.values()) expect(name).not.toMatch(UNSAFE);
  });
});
