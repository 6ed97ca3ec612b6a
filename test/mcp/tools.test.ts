// The tools of `mtg mcp`, in-process over the SDK's in-memory transport, against a mirror synced
// from a sandbox: the results are the CLI's own (find, changes, sql --json), the sandbox's data,
// pages within the bound that join to the whole, and every bad argument a one-sentence isError.
import { ResourceNotFoundError } from '@modelcontextprotocol/client';
import { describe, expect } from 'vitest';
import { openDb } from '../../src/mirror/driver.js';
import { runInProcess } from '../helpers/inprocess.js';
import {
  type Connected,
  connect,
  mcpTest as it,
  type McpEnv,
  mcpEnv,
  type Obj,
  storeTranscript,
} from './helpers.js';

const cli = async (m: McpEnv, args: string[]) => {
  const r = await runInProcess(args, { env: { ...m.env, MTG_OFFLINE: '1' } });
  expect(r.stderr.includes('rror') ? r.stderr : '').toBe('');
  return JSON.parse(r.stdout);
};

/** Every page of a listing tool, following nextCursor (bounded). */
async function allPages(
  c: Connected,
  tool: string,
  args: Obj,
  key: string,
): Promise<{ items: Obj[]; pages: number }> {
  const items: Obj[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages <= 500; pages++) {
    const r = await c.call(tool, { ...args, ...(cursor ? { cursor } : {}) });
    expect(r.isError, r.text).toBe(false);
    expect(r.text.length).toBeLessThanOrEqual(100_000);
    items.push(...r.data[key]);
    cursor = r.data.nextCursor;
    if (!cursor) return { items, pages };
  }
  throw new Error('more than 500 pages');
}

describe('tools/list', () => {
  it('offers the read tools annotated read-only, sync, and no write tool without --allow-writes', async ({
    c,
  }) => {
    const { tools } = await c.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of [
      'search',
      'list_meetings',
      'get_meeting',
      'get_transcript',
      'list_action_items',
      'get_person',
      'changes',
      'sql',
      'mirror_status',
    ]) {
      expect(byName[name]?.annotations?.readOnlyHint, name).toBe(true);
      expect(byName[name]?.description?.length, name).toBeGreaterThan(80);
    }
    expect(byName.sync).toBeDefined();
    expect(byName.create_action_item).toBeUndefined();
    expect(byName.update_action_item).toBeUndefined();
    expect(byName.search!.inputSchema.properties).toHaveProperty('query');
  });
});

describe('read tools answer from the mirror, as the CLI does, and send nothing', () => {
  it('search: the hits, order and snippets of `mtg find --json`, paged by cursor', async ({ m, c }) => {
    const before = m.sandbox.requests.length;
    for (const [query, extra] of [
      ['the', {}],
      ['pricing OR roadmap', { in: ['transcript'] }],
      ['a*', { in: ['name', 'notes'], since: '3650d' }],
      ['what did they decide about the pricing of the roadmap?', {}],
      ['what did they decide about the budget?', { groupBy: 'meeting' }],
    ] as const) {
      const cliArgs = ['find', query, '--json'];
      if ('in' in extra) cliArgs.push('--in', extra.in.join(','));
      if ('since' in extra) cliArgs.push('--since', extra.since);
      if ('groupBy' in extra) cliArgs.push('--by', extra.groupBy);
      const expected = await cli(m, cliArgs);
      if (query.startsWith('what')) expect((expected as unknown[]).length, query).toBeGreaterThan(0);
      const { items } = await allPages(c, 'search', { query, ...extra, limit: 7 }, 'results');
      expect(items).toEqual(expected);
    }
    expect(m.sandbox.requests.length).toBe(before);
  });

  it('list_meetings: every meeting of the sandbox, newest first, summarised; filters by attendee and tag', async ({
    m,
    c,
  }) => {
    const snap = m.sandbox.snapshot();
    const { items, pages } = await allPages(c, 'list_meetings', { limit: 5 }, 'meetings');
    expect(pages).toBeGreaterThan(1);
    expect(items.map((i) => i.id)).toEqual(snap.meetings.map((x) => x.id));
    const first = snap.meetings[0] as Obj;
    expect(items[0]).toMatchObject({
      id: first.id,
      name: first.name,
      createdAt: first.createdAt,
      tags: (first.tags ?? []).map((t: Obj) => t.name),
      actionItems: (first.actionItems ?? []).length,
      hasTranscript: true,
    });
    const someone = (snap.meetings.find((x: Obj) => x.attendees?.length) as Obj).attendees[0];
    const part = String(someone.email).slice(0, 6).toUpperCase();
    const { items: attended } = await allPages(
      c,
      'list_meetings',
      { attendee: part, limit: 100 },
      'meetings',
    );
    expect(attended.map((i) => i.id)).toEqual(
      snap.meetings
        .filter((x: Obj) =>
          x.attendees.some((a: Obj) => `${a.name}\n${a.email}`.toLowerCase().includes(part.toLowerCase())),
        )
        .map((x) => x.id),
    );
    const tagged = snap.meetings.find((x: Obj) => x.tags?.length) as Obj;
    const tag = tagged.tags[0].name as string;
    const { items: withTag } = await allPages(c, 'list_meetings', { tag, limit: 100 }, 'meetings');
    expect(withTag.map((i) => i.id)).toEqual(
      snap.meetings.filter((x: Obj) => x.tags.some((t: Obj) => t.name === tag)).map((x) => x.id),
    );
  });

  it('get_meeting: the meeting exactly as the API sent it, and the transcript size', async ({ m, c }) => {
    const snap = m.sandbox.snapshot();
    const meeting = snap.meetings[2] as Obj;
    const r = await c.call('get_meeting', { id: meeting.id });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.meeting).toEqual(meeting);
    const entries = snap.transcripts[meeting.id]!;
    expect(r.data.transcript).toEqual({
      entries: entries.length,
      chars: entries.reduce((n, e: Obj) => n + e.text.length, 0),
    });
    expect(JSON.parse(r.text)).toEqual(r.data);
  });

  it('list_action_items: pending, done and all as the sandbox lists them, with mine', async ({ m, c }) => {
    const snap = m.sandbox.snapshot();
    const mine = new Set(snap.myActionItems.map((i: Obj) => String(i.id)));
    const meetings = new Map(snap.meetings.map((x: Obj) => [x.id, x]));
    const meetingsOf = (i: Obj) =>
      (i.meetingIds ?? []).flatMap((id: string) => {
        const x = meetings.get(id) as Obj | undefined;
        return x ? [{ id, name: x.name ?? null, createdAt: x.createdAt }] : [];
      });
    for (const status of ['pending', 'done', 'all'] as const) {
      const { items } = await allPages(c, 'list_action_items', { status, limit: 7 }, 'actionItems');
      const expected = snap.actionItems
        .filter((i: Obj) => status === 'all' || i.status === status.toUpperCase())
        .map((i: Obj) => ({ ...i, mine: mine.has(String(i.id)), meetings: meetingsOf(i) }));
      expect(items).toEqual(expected);
    }
    const { items: own } = await allPages(
      c,
      'list_action_items',
      { status: 'all', mine: true },
      'actionItems',
    );
    expect(own.map((i) => String(i.id)).sort()).toEqual([...mine].sort());
    const withMeeting = snap.actionItems.find((i: Obj) => i.meetingIds?.length) as Obj;
    const { items: ofMeeting } = await allPages(
      c,
      'list_action_items',
      { status: 'all', meetingId: withMeeting.meetingIds[0] },
      'actionItems',
    );
    expect(ofMeeting.length).toBeGreaterThan(0);
    for (const i of ofMeeting) expect(i.meetingIds).toContain(withMeeting.meetingIds[0]);
  });

  it('changes: the events of `mtg changes --after SEQ --json`, with lastSeq to pass back', async ({
    m,
    c,
  }) => {
    const expected = await cli(m, ['changes', '--after', '0', '--json']);
    const seen: Obj[] = [];
    let after = 0;
    for (let i = 0; i < 100; i++) {
      const r = await c.call('changes', { after, limit: 40 });
      expect(r.isError, r.text).toBe(false);
      seen.push(...r.data.changes);
      after = r.data.lastSeq;
      if (!r.data.more) break;
    }
    expect(seen).toEqual(expected);
    const only = await c.call('changes', { resource: ['people'], limit: 1000 });
    expect(only.data.changes).toEqual(expected.filter((e: Obj) => e.resource === 'people'));
  });

  it('sql: the rows of `mtg sql --json`; truncated when the limit leaves rows out', async ({ m, c }) => {
    const query = "SELECT id, json ->> '$.name' AS name, deleted_at FROM meetings ORDER BY id";
    const expected = await cli(m, ['sql', query, '--json']);
    const r = await c.call('sql', { query });
    expect(r.data).toEqual({ columns: ['id', 'name', 'deleted_at'], rows: expected, truncated: false });
    const few = await c.call('sql', { query, limit: 3 });
    expect(few.data).toEqual({
      columns: ['id', 'name', 'deleted_at'],
      rows: expected.slice(0, 3),
      truncated: true,
    });
  });

  it('mirror_status: the figures of `mtg mirror status --json`', async ({ m, c }) => {
    const expected = await cli(m, ['mirror', 'status', '--json']);
    const r = await c.call('mirror_status');
    expect(r.data).toEqual({
      profile: 'default',
      path: expected.path,
      baseUrl: expected.baseUrl,
      lastSync: { at: expected.lastSync.finishedAt, complete: true },
      counts: expected.counts,
      transcriptsPending: 0,
      lastSeq: expected.lastSeq,
      sqlNote: expect.stringMatching(/deleted_at IS NULL/),
    });
  });

  it('the resource mtg://meetings/{id}: the meeting as Markdown, without transcript', async ({ m, c }) => {
    const meeting = m.sandbox.snapshot().meetings[1] as Obj;
    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['mtg://meetings/{id}']);
    const res = await c.client.readResource({ uri: `mtg://meetings/${meeting.id}` });
    const text = (res.contents[0] as { text: string }).text;
    expect(text.startsWith('---\n')).toBe(true);
    expect(text).toContain(`id: ${meeting.id}`);
    expect(text).not.toContain('<!-- mtg: notes below');
  });
});

describe('get_transcript pages by characters', () => {
  async function pagesOf(c: Connected, id: string, maxChars?: number) {
    const pages: Obj[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 1000; i++) {
      const r = await c.call('get_transcript', {
        id,
        ...(maxChars ? { maxChars } : {}),
        ...(cursor ? { cursor } : {}),
      });
      expect(r.isError, r.text).toBe(false);
      expect(r.text.length).toBeLessThanOrEqual(100_000);
      pages.push(r.data);
      cursor = r.data.nextCursor;
      if (!cursor) return pages;
    }
    throw new Error('more than 1000 pages');
  }
  const joined = (pages: Obj[]) => {
    const out: Obj[] = [];
    for (const p of pages)
      for (const e of p.entries) {
        if (e.continued) out[out.length - 1]!.text += e.text;
        else out.push({ speaker: e.speaker, text: e.text, timestamp: e.timestamp });
      }
    return out;
  };
  const plain = (entries: Obj[]) =>
    entries.map((e) => ({ speaker: e.speaker, text: e.text, timestamp: e.timestamp }));

  it('a long transcript: pages of at most maxChars that join to the whole, the same cursor giving the same page', async ({
    m,
    c,
  }) => {
    const id = m.sandbox.snapshot().meetings[3]!.id;
    const entries = Array.from({ length: 900 }, (_, i) => ({
      speaker: `Speaker ${i % 4}`,
      text: `${'word '.repeat(20 + (i % 50))}"quoted" \\ line ${i}\n`,
      timestamp: i * 7,
    }));
    storeTranscript(m.dataDir, id, entries);
    const pages = await pagesOf(c, id, 5_000);
    expect(pages.length).toBeGreaterThan(10);
    for (const p of pages) {
      expect(p.total).toBe(900);
      expect(p.entries.reduce((n: number, e: Obj) => n + e.text.length, 0)).toBeLessThanOrEqual(5_000);
    }
    expect(joined(pages)).toEqual(entries);
    const second = await c.call('get_transcript', { id, maxChars: 5_000, cursor: pages[0]!.nextCursor });
    const again = await c.call('get_transcript', { id, maxChars: 5_000, cursor: pages[0]!.nextCursor });
    expect(again.data).toEqual(second.data);
    expect(second.data).toEqual(pages[1]);
  });

  it('one entry longer than maxChars comes alone; one longer than the size bound in marked pieces', async ({
    m,
    c,
  }) => {
    const id = m.sandbox.snapshot().meetings[4]!.id;
    const entries = [
      { speaker: 'A', text: 'short', timestamp: 0 },
      { speaker: 'B', text: 'x'.repeat(60_000), timestamp: 1 },
      { speaker: 'C', text: `${'"\u0001'.repeat(70_000)}😀end`, timestamp: 2 },
      { speaker: 'D', text: 'after', timestamp: 3 },
    ];
    storeTranscript(m.dataDir, id, entries);
    const pages = await pagesOf(c, id);
    expect(pages[0]!.entries.map((e: Obj) => e.speaker)).toEqual(['A']);
    expect(pages[1]!.entries.map((e: Obj) => e.speaker)).toEqual(['B']);
    expect(pages.some((p) => p.entries.some((e: Obj) => e.continues))).toBe(true);
    expect(joined(pages)).toEqual(plain(entries));
  });

  it('an item alone past the bound (a change event with a whole transcript, an SQL cell) is cut and marked', async ({
    m,
    c,
  }) => {
    const id = m.sandbox.snapshot().meetings[4]!.id;
    const huge = [{ speaker: 'A', text: 'y'.repeat(150_000), timestamp: 0 }];
    storeTranscript(m.dataDir, id, huge);
    // As a sync that fetched this transcript records it: the event carries the whole transcript.
    const db = openDb(`${m.dataDir}/default.db`);
    try {
      db.prepare("UPDATE changes SET item = ? WHERE resource = 'transcripts' AND id = ?").run(
        JSON.stringify(huge),
        id,
      );
    } finally {
      db.close();
    }
    const events: Obj[] = [];
    for (let after = 0, more = true, i = 0; more && i < 50; i++) {
      const r = await c.call('changes', { resource: ['transcripts'], after, limit: 1000 });
      expect(r.isError, r.text).toBe(false);
      expect(r.text.length).toBeLessThanOrEqual(100_000);
      events.push(...r.data.changes);
      ({ lastSeq: after, more } = r.data);
    }
    const cut = events.filter((e: Obj) => e.truncated);
    // This one, and the 900-entry transcript stored above: each alone past the bound.
    expect(cut.map((e: Obj) => e.id)).toContain(id);
    for (const e of cut) expect(e.readWhole).toBe(`get_transcript with id "${e.id}"`);
    expect(events.map((e) => e.seq)).toEqual(
      (await cli(m, ['changes', '--after', '0', '--resource', 'transcripts', '--json'])).map(
        (e: Obj) => e.seq,
      ),
    );
    const q = await c.call('sql', {
      query: `SELECT meeting_id, json FROM transcripts WHERE meeting_id = '${id}'`,
    });
    expect(q.text.length).toBeLessThanOrEqual(100_000);
    expect(q.data.truncated).toBe(true);
    expect(q.data.rows[0].meeting_id).toBe(id);
    expect(q.data.rows[0].json).toMatch(/…\[cut\]$/);
  });

  it('list_action_items: an item alone past the bound is cut and says how to read it whole', async ({
    m,
    c,
  }) => {
    const item = m.sandbox.snapshot().actionItems[2] as Obj;
    const db = openDb(`${m.dataDir}/default.db`);
    try {
      db.prepare('UPDATE action_items SET json = ? WHERE id = ?').run(
        JSON.stringify({ ...item, description: 'z'.repeat(120_000) }),
        String(item.id),
      );
    } finally {
      db.close();
    }
    const { items } = await allPages(c, 'list_action_items', { status: 'all', limit: 200 }, 'actionItems');
    const cut = items.find((i) => String(i.id) === String(item.id)) as Obj;
    expect(cut.truncated).toBe(true);
    expect(cut.description).toMatch(/…\[cut\]$/);
    expect(cut.readWhole).toContain(`sql: SELECT json FROM action_items WHERE id = '${item.id}'`);
    const whole = await c.call('sql', {
      query: `SELECT length(json ->> '$.description') AS n FROM action_items WHERE id = '${item.id}'`,
    });
    expect(whole.data.rows).toEqual([{ n: 120_000 }]);
  });

  it('a cursor of another meeting, or a made-up one, is an error that names the fix', async ({ m, c }) => {
    const snap = m.sandbox.snapshot();
    const first = await c.call('get_transcript', { id: snap.meetings[3]!.id, maxChars: 1000 });
    const other = await c.call('get_transcript', { id: snap.meetings[5]!.id, cursor: first.data.nextCursor });
    expect(other.isError).toBe(true);
    expect(other.text).toMatch(/cursor belongs to other arguments/);
    for (const cursor of ['nonsense!', 'eyJmIjoxfQ', Buffer.from('{"f":"x","o":-1}').toString('base64url')]) {
      const r = await c.call('get_transcript', { id: snap.meetings[3]!.id, cursor });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/cursor/);
    }
  });
});

describe('bad arguments are one-sentence errors and the server goes on', () => {
  it.for([
    ['search', {}, /^query is required$/],
    ['search', { query: '   ' }, /^query must not be empty$/],
    ['search', { query: 'a', limit: 0 }, /^limit must be a whole number from 1 to 100$/],
    ['search', { query: 'a', limit: 2.5 }, /^limit must be a whole number/],
    ['search', { query: 'a', in: ['nowhere'] }, /^in must list only name, notes/],
    ['search', { query: 'a', since: 'yesterday' }, /^since "yesterday" is not a date/],
    [
      'search',
      { query: 'a', since: '2026-03-02', until: '2026-03-01' },
      /^since .* is not earlier than until/,
    ],
    ['search', { query: '"unbalanced' }, /./],
    ['search', { query: 'a', colour: 'red' }, /^unknown argument "colour"$/],
    ['search', { query: 'a', cursor: 'garbage' }, /^malformed cursor: it is not one this server gave/],
    ['list_meetings', { limit: 101 }, /^limit must be a whole number from 1 to 100$/],
    ['get_meeting', { id: 'mtg_nope' }, /^no meeting mtg_nope in the mirror/],
    ['get_meeting', { id: 42 }, /^id must be a non-empty string$/],
    ['get_transcript', { id: 'mtg_nope' }, /^no meeting mtg_nope in the mirror/],
    ['get_transcript', { id: 'x', maxChars: 999 }, /^maxChars must be a whole number from 1,000 to 80,000$/],
    ['list_action_items', { status: 'open' }, /^status must be one of pending, done, all$/],
    ['list_action_items', { limit: 201 }, /^limit must be a whole number from 1 to 200$/],
    ['changes', { after: -1 }, /^after must be a whole number/],
    [
      'changes',
      { after: 10_000_000 },
      /^after 10000000 is past the last change .*; start again with after 0$/,
    ],
    ['changes', { resource: ['tags'] }, /^resource must list only/],
    [
      'sql',
      { query: 'DELETE FROM meetings' },
      /^the sql tool only reads: this statement would write to the mirror$/,
    ],
    ['sql', { query: 'BEGIN' }, /^the sql tool runs statements that return rows/],
    ['sql', { query: 'SELEKT 1' }, /^the query could not run: SQLite says: /],
    ['sql', { query: 'SELECT 1', limit: 1001 }, /^limit must be a whole number from 1 to 1,000$/],
    ['mirror_status', { verbose: true }, /^unknown argument "verbose"$/],
  ] as [string, Obj, RegExp][])('%s %j', async ([tool, args, message], { m, c }) => {
    const before = m.sandbox.requests.length;
    const r = await c.call(tool, args as Obj);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(message);
    expect(r.text).not.toMatch(/\n/);
    expect(m.sandbox.requests.length).toBe(before);
    expect((await c.call('mirror_status')).isError).toBe(false);
  });
});

describe('fresh reads, writes, and no mirror', () => {
  it('a sync after the data changed is seen at the next call', async ({ m, c }) => {
    const before = (await c.call('mirror_status')).data;
    m.sandbox.churn(3);
    await m.sync();
    const after = (await c.call('mirror_status')).data;
    expect(after.lastSeq).toBeGreaterThan(before.lastSeq);
    const { items } = await allPages(c, 'list_meetings', { limit: 100 }, 'meetings');
    expect(items.map((i) => i.id)).toEqual(m.sandbox.snapshot().meetings.map((x) => x.id));
  });

  it('with --allow-writes: each write is one request, its result the server item, visible to the next read', async ({
    m,
    c,
  }) => {
    const w = await connect(m.env, { allowWrites: true });
    try {
      const from = m.sandbox.requests.length;
      const created = await w.call('create_action_item', {
        title: 'Send the MCP notes',
        description: 'to everyone',
      });
      expect(created.isError, created.text).toBe(false);
      expect(created.data).toMatchObject({ title: 'Send the MCP notes' });
      const id = created.data.id;
      const updated = await w.call('update_action_item', { id, status: 'DONE' });
      expect(updated.isError, updated.text).toBe(false);
      expect(updated.data).toMatchObject({ id, status: 'DONE' });
      const sent = m.sandbox.requests.slice(from).map((r) => `${r.method} ${r.path}`);
      expect(sent).toEqual(['POST /action-items', `PUT /action-item/${id}`]);
      const done = await allPages(c, 'list_action_items', { status: 'done', limit: 200 }, 'actionItems');
      expect(done.items.find((i) => i.id === id)).toMatchObject({
        title: 'Send the MCP notes',
        status: 'DONE',
      });
      // An action item ID, not a profile ID.
      const notAnId = await w.call('update_action_item', { id: true, status: 'DONE' });
      expect(notAnId.isError).toBe(true);
      expect(notAnId.text).toBe('id must be an action item ID (a number)');
      const none = await w.call('update_action_item', { id });
      expect(none.isError).toBe(true);
      expect(none.text).toMatch(/^nothing to change/);
      expect(m.sandbox.requests.length).toBe(from + 2);
    } finally {
      await w.close();
    }
  });

  it('a write goes into the mirror as a sync stores it: searchable, listed, one change event, and the next sync finds nothing new', async ({
    m,
    c,
  }) => {
    const w = await connect(m.env, { allowWrites: true });
    try {
      await m.sync();
      const snap = m.sandbox.snapshot();
      const meeting = snap.meetings.find((x: Obj) => x.actionItems?.length) as Obj;
      const linked = meeting.actionItems[0].id;
      const current = meeting.actionItems[0].assignee?.profileId;
      // Someone else the mirror knows as an assignee: the update's response carries no assignee.
      const other = (snap.actionItems as Obj[]).find(
        (a) => a.assignee && a.assignee.profileId !== current,
      )!.assignee;
      const from = (await w.call('mirror_status')).data.lastSeq;

      const updated = await w.call('update_action_item', {
        id: linked,
        title: 'Zanzibar quarterly plan',
        status: meeting.actionItems[0].status === 'DONE' ? 'PENDING' : 'DONE',
        assignee: other.profileId,
      });
      expect(updated.isError, updated.text).toBe(false);
      const created = await w.call('create_action_item', { title: 'Quokka follow-up' });
      expect(created.isError, created.text).toBe(false);
      const id = created.data.id;

      const hits = await w.call('search', { query: 'zanzibar', in: ['action-items'] });
      expect(hits.data.results.map((h: Obj) => h.meetingId)).toEqual([meeting.id]);
      const { items } = await allPages(c, 'list_action_items', { status: 'all', limit: 200 }, 'actionItems');
      expect(items.find((i) => i.id === linked)).toMatchObject({
        title: 'Zanzibar quarterly plan',
        assignee: other,
      });
      expect(items.find((i) => i.id === id)).toMatchObject({ title: 'Quokka follow-up', status: 'PENDING' });
      const mineNow = await allPages(c, 'list_action_items', { mine: true, limit: 200 }, 'actionItems');
      expect(mineNow.items.map((i) => i.id)).toContain(id);

      const events = (await w.call('changes', { after: from })).data.changes as Obj[];
      const flipped = meeting.actionItems[0].status === 'DONE' ? 'reopened' : 'completed';
      expect(events.map((e) => [e.resource, e.id, e.change])).toEqual([
        ['action-items', linked, flipped],
        ['meetings', meeting.id, 'updated'],
        ['action-items', id, 'created'],
      ]);
      expect(events[0]!.fields).toEqual(['title', 'assignee', 'status']);
      const seq = (await w.call('mirror_status')).data.lastSeq;

      await m.sync();
      const after = (await w.call('changes', { after: seq })).data.changes as Obj[];
      expect(after.map((e) => [e.resource, e.id, e.change])).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('with --offline: no sync tool; no mirror: every tool but mirror_status says to run mtg sync', async ({
    m,
  }) => {
    const off = await connect(m.env, { offline: true });
    try {
      const names = (await off.client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('sync');
      expect(names).toContain('search');
    } finally {
      await off.close();
    }
    const empty = await mcpEnv({}, false);
    const e = await connect(empty.env);
    try {
      for (const [tool, args] of [
        ['search', { query: 'a' }],
        ['list_meetings', {}],
        ['get_meeting', { id: 'x' }],
        ['get_transcript', { id: 'x' }],
        ['list_action_items', {}],
        ['changes', {}],
        ['sql', { query: 'SELECT 1' }],
      ] as const) {
        const r = await e.call(tool, args);
        expect(r.isError, tool).toBe(true);
        expect(r.text).toBe('no mirror for profile default: run `mtg sync`');
      }
      const status = await e.call('mirror_status');
      expect(status.isError).toBe(false);
      expect(status.data).toMatchObject({ profile: 'default', lastSync: null, baseUrl: null });
      expect(empty.sandbox.requests.length).toBe(0);
    } finally {
      await e.close();
      await empty.sandbox.close();
    }
  });
});

describe('a mirror made, reset or deleted while the server runs', () => {
  it('the next call sees it: no mirror, then a mirror after the first sync, then none after a reset, then the new one', async () => {
    const late = await mcpEnv({}, false);
    const s = await connect(late.env);
    try {
      const none = await s.call('list_meetings', {});
      expect(none.text).toBe('no mirror for profile default: run `mtg sync`');
      expect((await s.call('mirror_status')).data.lastSync).toBeNull();

      await late.sync();
      const listed = await s.call('list_meetings', { limit: 100 });
      expect(listed.isError, listed.text).toBe(false);
      expect(listed.data.meetings.map((x: Obj) => x.id)).toEqual(
        late.sandbox.snapshot().meetings.map((x) => x.id),
      );
      expect((await s.call('mirror_status')).data.lastSync).not.toBeNull();

      const reset = await runInProcess(['mirror', 'reset'], { env: late.env });
      expect(reset.code, reset.stderr).toBe(0);
      for (const [tool, args] of [
        ['search', { query: 'a' }],
        ['list_meetings', {}],
        ['changes', {}],
      ] as const) {
        const r = await s.call(tool, args);
        expect(r.text, tool).toBe('no mirror for profile default: run `mtg sync`');
      }
      expect((await s.call('mirror_status')).data.lastSync).toBeNull();

      late.sandbox.churn(2);
      await late.sync();
      const again = await s.call('list_meetings', { limit: 100 });
      expect(again.data.meetings.map((x: Obj) => x.id)).toEqual(
        late.sandbox.snapshot().meetings.map((x) => x.id),
      );
      const events = await s.call('changes', {});
      expect(events.data.changes[0].seq).toBe(1);
    } finally {
      await s.close();
      await late.sandbox.close();
    }
  });
});

describe('the sync tool', () => {
  it('another sync running: running: true naming its PID, so the assistant can wait, and nothing is sent', async ({
    m,
    c,
  }) => {
    // The lock as a running `mtg sync` holds it: a live node process (the test runner's parent).
    const db = openDb(`${m.dataDir}/default.db`);
    const lock = JSON.stringify({ pid: process.ppid, startedAt: '2026-01-01T00:00:00.000Z' });
    db.prepare("INSERT INTO meta(key, value) VALUES ('sync_lock', ?)").run(lock);
    try {
      const before = m.sandbox.requests.length;
      const r = await c.call('sync');
      expect(r.isError, r.text).toBe(false);
      expect(r.data).toMatchObject({ complete: false, running: true, pid: process.ppid });
      expect(r.data.note).toMatch(new RegExp(`another process \\(PID ${process.ppid}\\b`));
      expect(m.sandbox.requests.length).toBe(before);
    } finally {
      db.prepare("DELETE FROM meta WHERE key = 'sync_lock'").run();
      db.close();
    }
    const ok = await c.call('sync', { budget: 500 });
    expect(ok.isError, ok.text).toBe(false);
    expect(ok.data.complete).toBe(true);
  });
});

describe('the sync and the writes', () => {
  it('a write during a sync with a budget is paced with it but not counted in it: the sync still makes its budget of requests', async () => {
    const paced = await mcpEnv({ limits: '4/1s' }, false);
    const w = await connect(paced.env, { allowWrites: true });
    try {
      const sync = w.call('sync', { budget: 6 });
      // Bounded: the sync's first request is on its way within the first window.
      for (let i = 0; i < 200 && paced.sandbox.requests.length === 0; i++)
        await new Promise((r) => setTimeout(r, 10));
      const created = await w.call('create_action_item', { title: 'Sent while syncing' });
      expect(created.isError, created.text).toBe(false);
      const summary = await sync;
      expect(summary.isError, summary.text).toBe(false);
      expect(summary.data).toMatchObject({ complete: false, requests: 6 });
      const sent = paced.sandbox.requests.map((r) => r.method);
      expect(sent.filter((m) => m === 'GET').length).toBe(6);
      expect(sent.filter((m) => m === 'POST').length).toBe(1);
      expect(paced.sandbox.requests.every((r) => r.status !== 429)).toBe(true);
    } finally {
      await w.close();
      await paced.sandbox.close();
    }
  });
});

describe('writes under failure', () => {
  it('a create whose connection drops is not sent again: one POST, an isError saying so, the server goes on', async () => {
    const faulty = await mcpEnv({ faults: 'reset:1' }, false);
    const w = await connect(faulty.env, { allowWrites: true });
    try {
      const r = await w.call('create_action_item', { title: 'Only once' });
      expect(r.isError).toBe(true);
      expect(r.text).not.toMatch(/\n/);
      // An assistant must not create it again blindly.
      expect(r.text).toMatch(/the write may have been applied: check before running it again/);
      const posts = faulty.sandbox.requests.filter((q) => q.method === 'POST');
      expect(posts.length).toBe(1);
      expect((await w.call('mirror_status')).isError).toBe(false);
    } finally {
      await w.close();
      await faulty.sandbox.close();
    }
  });
});

describe('resources/read of a meeting the mirror does not hold', () => {
  it('is resource-not-found (-32602 with data {uri}, SEP-2164) saying which, not an internal error', async ({
    c,
  }) => {
    const uri = 'mtg://meetings/nope';
    const err = await c.client.readResource({ uri }).then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string; data?: unknown },
    );
    expect(err).toBeInstanceOf(ResourceNotFoundError);
    expect(err?.code).toBe(-32602);
    expect(err?.data).toEqual({ uri });
    expect(err?.message).toMatch(/resource mtg:\/\/meetings\/nope not found: no meeting nope in the mirror/);
  });
});
