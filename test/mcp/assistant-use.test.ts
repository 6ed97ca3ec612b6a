// `mtg mcp` as an assistant and its user meet it: writes seen at
// once and logged once, a sync call that ends before a client's request timeout, a resource within
// the size bound, unknown IDs as errors, either case of a status, every argument described, and no
// Node warning under many parallel calls.
import { readFileSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect } from 'vitest';
import { Context } from '../../src/cli/context.js';
import { parseGlobals } from '../../src/cli/globals.js';
import { helpTopicTexts } from '../../src/cli/help-topics.js';
import { testIO } from '../../src/cli/io.js';
import { mirrorAccess } from '../../src/mcp/mirror-access.js';
import { serveStdio } from '../../src/mcp/server.js';
import { estimateTokens } from '../../src/mcp/tokens.js';
import { openDb } from '../../src/mirror/driver.js';
import { connect, mcpTest as it, mcpEnv, type Obj } from './helpers.js';

describe('writes through MCP, then reads and the next sync', () => {
  it('complete an item with a new title and create one: completed with [title, status] and created at the write, the assignee kept, mine right, get_meeting and search updated, nothing again at the next sync', async ({
    m,
  }) => {
    const w = await connect(m.env, { allowWrites: true });
    try {
      await m.sync();
      const snap = m.sandbox.snapshot();
      const meeting = snap.meetings.find((x: Obj) =>
        x.actionItems?.some((a: Obj) => a.status === 'PENDING' && a.assignee),
      ) as Obj;
      const item = meeting.actionItems.find((a: Obj) => a.status === 'PENDING' && a.assignee) as Obj;
      const from = (await w.call('mirror_status')).data.lastSeq;

      const updated = await w.call('update_action_item', {
        id: item.id,
        status: 'DONE',
        title: 'Draft wombat meeting notes',
      });
      expect(updated.isError, updated.text).toBe(false);
      const created = await w.call('create_action_item', {
        title: 'QA zebracorn followup',
        description: 'check the quokka numbers',
      });
      expect(created.isError, created.text).toBe(false);
      const newId = created.data.id;

      const events = (await w.call('changes', { after: from })).data.changes as Obj[];
      expect(events.map((e) => [e.resource, e.id, e.change])).toEqual([
        ['action-items', item.id, 'completed'],
        ['meetings', meeting.id, 'updated'],
        ['action-items', newId, 'created'],
      ]);
      expect([...events[0]!.fields].sort()).toEqual(['status', 'title']);

      const all = (await w.call('list_action_items', { status: 'all', limit: 200 })).data
        .actionItems as Obj[];
      expect(all.find((i) => i.id === item.id)).toMatchObject({
        status: 'DONE',
        title: 'Draft wombat meeting notes',
        assignee: item.assignee,
      });
      // Created without an assignee: the service assigns it to the key's own user (it must come back as mine).
      const own = (await w.call('list_action_items', { mine: true, limit: 200 })).data.actionItems as Obj[];
      expect(own.some((i) => i.id === newId)).toBe(true);
      expect(all.find((i) => i.id === newId)?.mine).toBe(true);

      const got = await w.call('get_meeting', { id: meeting.id });
      expect(got.data.meeting.actionItems.find((a: Obj) => a.id === item.id)).toMatchObject({
        status: 'DONE',
        title: 'Draft wombat meeting notes',
      });
      const hits = await w.call('search', { query: 'wombat' });
      expect(hits.data.results.map((h: Obj) => h.meetingId)).toContain(meeting.id);

      const seq = (await w.call('mirror_status')).data.lastSeq;
      await m.sync();
      const later = (await w.call('changes', { after: seq })).data.changes as Obj[];
      expect(later.map((e) => [e.resource, e.id, e.change, e.fields])).toEqual([]);
    } finally {
      await w.close();
    }
  });
  it('a write the mirror cannot store at once (a sync holds its write lock): the item as the service returned it, a second text saying reads show it after the next sync, and the next sync stores it', async () => {
    const own = await mcpEnv();
    const logged: string[] = [];
    const w = await connect(own.env, { allowWrites: true, log: (line) => logged.push(line) });
    const locker = openDb(`${own.dataDir}/default.db`);
    try {
      locker.exec('BEGIN IMMEDIATE');
      const r = (await w.client.callTool({
        name: 'create_action_item',
        arguments: { title: 'Written while the mirror was locked' },
      })) as Obj;
      locker.exec('ROLLBACK');
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ title: 'Written while the mirror was locked' });
      const id = r.structuredContent.id;
      const texts = (r.content as Obj[]).filter((b) => b.type === 'text').map((b) => b.text as string);
      expect(texts).toHaveLength(2);
      expect(JSON.parse(texts[0]!).id).toBe(id);
      expect(texts[1]).toMatch(
        /^Written to the service, but the mirror could not store it yet \(.*locked.*\): reads show it after the next complete sync\. Do not write it again\.$/,
      );
      expect(logged).toEqual([`mtg mcp: ${texts[1]}`]);
      // Sent once, and not yet in the mirror.
      expect(own.sandbox.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
      const before = (await w.call('list_action_items', { status: 'all', limit: 100 })).data
        .actionItems as Obj[];
      expect(before.some((i) => i.id === id)).toBe(false);
      await own.sync();
      const after = (await w.call('list_action_items', { status: 'all', limit: 100 })).data
        .actionItems as Obj[];
      expect(after.some((i) => i.id === id)).toBe(true);
    } finally {
      locker.close();
      await w.close();
      await own.sandbox.close();
    }
  }, 30_000);
});

describe('the sync tool ends within its time bound', () => {
  it('under tight windows: complete false with a sentence to call again, progress notifications, and calls again reach complete, paced', async () => {
    const paced = await mcpEnv({ limits: '3/1s,20/10s' }, false);
    const s = await connect(paced.env, { syncTimeBoundMs: 1_500 });
    try {
      const progress: Obj[] = [];
      const first = (await s.client.callTool(
        { name: 'sync', arguments: {} },
        { onprogress: (p) => progress.push(p) },
      )) as Obj;
      expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
      expect(first.structuredContent.complete).toBe(false);
      expect(first.structuredContent.running).toBe(true);
      expect(first.structuredContent.note).toMatch(/call sync again/);
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.every((p) => typeof p.progress === 'number' && typeof p.message === 'string')).toBe(
        true,
      );
      let done = false;
      // Each call waits at most the bound: calls again reach the end of the one run.
      for (let i = 0; i < 100 && !done; i++) {
        const r = await s.call('sync');
        expect(r.isError, r.text).toBe(false);
        done = r.data.complete;
      }
      expect(done).toBe(true);
      // Paced, though not to zero 429s: this runs in real time on a loaded machine, where one
      // refill judged a moment early is a 429, waited out (the pacing itself is judged on a virtual
      // clock, test/api/ratelimit-simulation.test.ts). Unpaced, most requests would be refused.
      const refused = paced.sandbox.requests.filter((r) => r.status === 429).length;
      expect(refused).toBeLessThanOrEqual(paced.sandbox.requests.length / 10);
      const status = await s.call('mirror_status');
      expect(status.data.counts.meetings).toBe(paced.sandbox.snapshot().meetings.length);
      expect(status.data.lastSync.complete).toBe(true);
    } finally {
      await s.close();
      await paced.sandbox.close();
    }
  }, 60_000);

  it('the description tells the model that a sync may stop early and how budget works', async ({ c }) => {
    const { tools } = await c.client.listTools();
    const sync = tools.find((t) => t.name === 'sync')!;
    expect(sync.description).toMatch(/call sync again/i);
    expect((sync.inputSchema.properties as Obj).budget.description).toMatch(/requests/);
  });
});

describe('the resource mtg://meetings/{id} is bounded', () => {
  it('a meeting with 360,000 characters of notes: within the bound, its notes cut at a line and a line saying how to read the rest; readWhole points to sql', async ({
    m,
    c,
  }) => {
    const id = m.sandbox.snapshot().meetings[2]!.id as string;
    const line = `${'notes of a long meeting, '.repeat(4).trim()}\n`;
    const notes = line.repeat(Math.ceil(360_000 / line.length));
    const db = openDb(`${m.dataDir}/default.db`);
    try {
      db.prepare("UPDATE meetings SET json = json_set(json, '$.notes', ?) WHERE id = ?").run(notes, id);
    } finally {
      db.close();
    }
    const res = await c.client.readResource({ uri: `mtg://meetings/${id}` });
    const text = (res.contents[0] as { text: string }).text;
    expect(estimateTokens(text)).toBeLessThanOrEqual(20_000);
    const lines = text.split('\n').filter((l) => l !== '');
    const marker = lines.findIndex((l) => l.startsWith('[notes shortened'));
    expect(lines[marker]).toMatch(/substr\(/);
    // Every line before the marker is a whole line of the notes (cut at a line).
    expect(lines[marker - 1]).toBe(line.trimEnd());

    const got = await c.call('get_meeting', { id });
    expect(got.data.truncated).toBe(true);
    expect(got.data.readWhole).not.toMatch(/mtg:\/\//);
    expect(got.data.readWhole).toMatch(/substr\(/);
    // Following that sentence gives the meeting whole, each piece within the bound.
    const q = (from: number) =>
      `SELECT length(json) AS chars, substr(json, ${from}, 15000) AS piece FROM meetings WHERE id = '${id}'`;
    let whole = '';
    for (let from = 1, i = 0; i < 100; i++, from += 15_000) {
      const r = await c.call('sql', { query: q(from) });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.truncated).toBe(false);
      whole += r.data.rows[0].piece;
      if (whole.length >= r.data.rows[0].chars) break;
    }
    expect(JSON.parse(whole).notes).toBe(notes);
  });
});

describe('unknown IDs and argument spelling', () => {
  it('list_action_items, get_meeting and get_transcript: an unknown meeting ID is isError with the same sentence', async ({
    c,
  }) => {
    for (const [tool, args] of [
      ['list_action_items', { meetingId: 'mtg_nope' }],
      ['get_meeting', { id: 'mtg_nope' }],
      ['get_transcript', { id: 'mtg_nope' }],
    ] as const) {
      const r = await c.call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(r.text).toBe('no meeting mtg_nope in the mirror (search and list_meetings give IDs)');
    }
  });

  it('list_action_items takes DONE and ALL as done and all; the schema advertises the lower case', async ({
    c,
  }) => {
    for (const [upper, lower] of [
      ['DONE', 'done'],
      ['ALL', 'all'],
      ['Pending', 'pending'],
    ]) {
      const a = await c.call('list_action_items', { status: upper, limit: 200 });
      const b = await c.call('list_action_items', { status: lower, limit: 200 });
      expect(a.isError, a.text).toBe(false);
      expect(a.data.actionItems.map((i: Obj) => i.id)).toEqual(b.data.actionItems.map((i: Obj) => i.id));
    }
    const { tools } = await c.client.listTools();
    const list = tools.find((t) => t.name === 'list_action_items')!;
    expect((list.inputSchema.properties as Obj).status.enum).toEqual(['pending', 'done', 'all']);
  });

  it('update_action_item takes done as DONE', async ({ m }) => {
    const w = await connect(m.env, { allowWrites: true });
    try {
      const item = (m.sandbox.snapshot().actionItems as Obj[]).find((a) => a.status === 'DONE')!;
      const r = await w.call('update_action_item', { id: item.id, status: 'pending' });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.status).toBe('PENDING');
      const { tools } = await w.client.listTools();
      const update = tools.find((t) => t.name === 'update_action_item')!;
      expect((update.inputSchema.properties as Obj).status.enum).toEqual(['PENDING', 'DONE']);
    } finally {
      await w.close();
    }
  });

  it('every argument of every tool has a description', async ({ m }) => {
    const w = await connect(m.env, { allowWrites: true });
    try {
      const { tools } = await w.client.listTools();
      const missing = tools.flatMap((t) =>
        Object.entries((t.inputSchema.properties ?? {}) as Obj)
          .filter(([, p]) => !p.description)
          .map(([k]) => `${t.name}.${k}`),
      );
      expect(missing).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('sql: a statement SQLite refuses says that the query failed, then why', async ({ c }) => {
    const r = await c.call('sql', { query: 'select 1; select 2' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^the query could not run: /);
    expect(r.text).not.toMatch(/mtg sql/);
  });
});

describe('many parallel calls', () => {
  it('60 parallel calls over stdio with a slow reader: every answer, and no MaxListenersExceededWarning', async ({
    m,
  }) => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    const stdin = new PassThrough();
    const chunks: string[] = [];
    // A reader that takes each chunk a little later: writes queue up behind it (backpressure).
    const stdout = new Writable({
      highWaterMark: 1024,
      write(chunk, _enc, done) {
        chunks.push(chunk.toString());
        setTimeout(done, 1);
      },
    });
    const controller = new AbortController();
    const io = testIO();
    io.decideColors(m.env, true);
    const ctx = new Context(parseGlobals({ offline: true }), io, m.env, controller.signal);
    const access = await mirrorAccess(ctx);
    const served = serveStdio(access, {
      version: 'test',
      offline: true,
      allowWrites: false,
      log: () => {},
      stdin,
      stdout,
      signal: controller.signal,
    });
    try {
      const send = (msg: Obj) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
      send({
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      send({ method: 'notifications/initialized' });
      for (let i = 1; i <= 60; i++)
        send({
          id: i,
          method: 'tools/call',
          params: { name: 'sql', arguments: { query: 'select json from meetings' } },
        });
      const answered = () =>
        chunks
          .join('')
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Obj)
          .filter((msg) => typeof msg.id === 'number' && msg.id > 0).length;
      for (let i = 0; i < 1_000 && answered() < 60; i++) await new Promise((r) => setTimeout(r, 10));
      expect(answered()).toBe(60);
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
      controller.abort();
      await served;
      await ctx.dispose();
    }
  });
});

describe('the docs `mtg help mcp` points to', () => {
  it('every docs/ file the topic names is in the npm package (package.json files)', () => {
    const named = helpTopicTexts().mcp!.match(/docs\/[\w./-]+\.md/g) ?? [];
    expect(named.length).toBeGreaterThan(0);
    const files = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).files;
    for (const path of named)
      expect(files.some((f: string) => f === path || path.startsWith(`${f}/`))).toBe(true);
  });
});
