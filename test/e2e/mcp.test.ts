// `mtg mcp` end to end: the built binary spawned by the SDK's Client over StdioClientTransport,
// against a mirror synced from a sandbox; results compared with the sandbox and the CLI's own
// output; the process's stdout holds only protocol messages and it stops cleanly.
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, mtgCommand, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { type McpEnv, mcpEnv } from '../mcp/helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: tool results are JSON, read by path in assertions
type Obj = Record<string, any>;

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
});

async function start(env: Record<string, string>, flags: string[] = []) {
  const transport = new StdioClientTransport({
    ...mtgCommand(['mcp', ...flags]),
    env: { ...(baseEnv() as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mtg-e2e', version: '1' });
  await client.connect(transport);
  open.push(client);
  const call = async (name: string, args: Obj = {}) => {
    const r = (await client.callTool({ name, arguments: args })) as Obj;
    return { isError: !!r.isError, data: r.structuredContent, text: r.content[0]?.text as string };
  };
  return { client, call };
}

let m: McpEnv;
beforeAll(async () => {
  m = await mcpEnv();
});
afterAll(async () => {
  await m?.sandbox.close();
});

describe('mtg mcp over stdio', () => {
  it('every read tool answers from the mirror as the CLI does, and none sends a request', async () => {
    const { client, call } = await start(m.env);
    const before = m.sandbox.requests.length;
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'changes',
        'get_meeting',
        'get_person',
        'get_transcript',
        'list_action_items',
        'list_meetings',
        'mirror_status',
        'search',
        'sql',
        'sync',
      ].sort(),
    );
    const snap = m.sandbox.snapshot();
    const cli = async (args: string[]) =>
      JSON.parse((await runCli(args, { env: { ...m.env, MTG_OFFLINE: '1' } })).stdout);

    const hits = await call('search', { query: 'the', limit: 100 });
    expect(hits.data.results).toEqual((await cli(['find', 'the', '--json'])).slice(0, 100));
    expect(JSON.parse(hits.text)).toEqual(hits.data);

    const list = await call('list_meetings', { limit: 100 });
    expect(list.data.meetings.map((x: Obj) => x.id)).toEqual(snap.meetings.map((x) => x.id));

    const meeting = snap.meetings[0] as Obj;
    expect((await call('get_meeting', { id: meeting.id })).data.meeting).toEqual(meeting);

    const entries: Obj[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 100; i++) {
      const page = await call('get_transcript', {
        id: meeting.id,
        maxChars: 1000,
        ...(cursor ? { cursor } : {}),
      });
      entries.push(...page.data.entries);
      cursor = page.data.nextCursor;
      if (!cursor) break;
    }
    expect(entries).toEqual(
      snap.transcripts[meeting.id]!.map((e: Obj) => ({
        speaker: e.speaker,
        text: e.text,
        timestamp: e.timestamp,
      })),
    );

    const items = await call('list_action_items', { status: 'all', limit: 200 });
    expect(items.data.actionItems.map((i: Obj) => i.id)).toEqual(snap.actionItems.map((i: Obj) => i.id));

    // Pages within the token bound, each after the lastSeq of the one before, join to the CLI's feed.
    const events: Obj[] = [];
    let after = 0;
    for (let page = 0; page < 50; page++) {
      const changes = await call('changes', { after, limit: 1000 });
      events.push(...changes.data.changes);
      after = changes.data.lastSeq;
      if (!changes.data.more) break;
    }
    expect(events).toEqual(await cli(['changes', '--after', '0', '--json']));

    const q = 'SELECT id, created_at FROM meetings ORDER BY created_at DESC';
    expect((await call('sql', { query: q })).data.rows).toEqual(await cli(['sql', q, '--json']));

    expect((await call('mirror_status')).data.counts.meetings).toBe(snap.meetings.length);
    const bad = await call('sql', { query: 'DROP TABLE meetings' });
    expect(bad.isError).toBe(true);
    expect((await call('mirror_status')).isError).toBe(false);
    expect(m.sandbox.requests.length).toBe(before);
  });

  it('sees a sync by another process at the next call', async () => {
    const { call } = await start(m.env);
    const before = (await call('mirror_status')).data.lastSeq;
    m.sandbox.churn(2);
    const synced = await runCli(['sync', '--json'], { env: m.env, timeoutMs: 60_000 });
    expect(synced.code).toBe(0);
    const after = await call('mirror_status');
    expect(after.data.lastSeq).toBeGreaterThan(before);
    const list = await call('list_meetings', { limit: 100 });
    expect(list.data.meetings.map((x: Obj) => x.id)).toEqual(m.sandbox.snapshot().meetings.map((x) => x.id));
  });

  it('cursors across a sync by another process: list_meetings goes on without repeat or gap, search asks to start again', async () => {
    const { call } = await start(m.env);
    const first = (await call('list_meetings', { limit: 3 })).data;
    const last = first.meetings.at(-1);
    const found = (await call('search', { query: 'the', limit: 2 })).data;
    for (let i = 0; i < 50; i++) if (m.sandbox.churn(1).meetings.created.length > 0) break;
    const synced = await runCli(['sync', '--json'], { env: m.env, timeoutMs: 60_000 });
    expect(synced.code).toBe(0);
    const second = await call('list_meetings', { limit: 3, cursor: first.nextCursor });
    expect(second.isError, second.text).toBe(false);
    const older = m.sandbox
      .snapshot()
      .meetings.filter((x) => Date.parse(x.createdAt as string) < Date.parse(last.createdAt));
    expect(second.data.meetings.map((x: Obj) => x.id)).toEqual(older.slice(0, 3).map((x) => x.id));
    const stale = await call('search', { query: 'the', limit: 2, cursor: found.nextCursor });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/repeat the search without a cursor/);
  });

  it('the sync tool returns the summary of `mtg sync --json`; --offline offers no sync and sends nothing', async () => {
    const { call } = await start(m.env);
    const r = await call('sync', { budget: 1000 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data).toMatchObject({ complete: true, transcripts: { pending: 0 } });
    expect(Object.keys(r.data).sort()).toEqual(
      [
        'actionItems',
        'companies',
        'complete',
        'durationMs',
        'meetings',
        'people',
        'requests',
        'transcripts',
      ].sort(),
    );
    const off = await start(m.env, ['--offline']);
    const names = (await off.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('sync');
    const before = m.sandbox.requests.length;
    expect((await off.call('search', { query: 'the' })).isError).toBe(false);
    expect(m.sandbox.requests.length).toBe(before);
  });

  it('write tools only with --allow-writes; each applied once and visible to the next read', async () => {
    const plain = await start(m.env);
    expect((await plain.client.listTools()).tools.map((t) => t.name)).not.toContain('create_action_item');
    const w = await start(m.env, ['--allow-writes']);
    const from = m.sandbox.requests.length;
    const created = await w.call('create_action_item', { title: 'From the assistant' });
    expect(created.isError, created.text).toBe(false);
    const id = created.data.id;
    const listed = await w.call('sql', {
      query: `SELECT json ->> '$.title' AS title FROM action_items WHERE id = '${id}'`,
    });
    expect(listed.data.rows).toEqual([{ title: 'From the assistant' }]);
    expect(m.sandbox.requests.slice(from).map((r) => r.method)).toEqual(['POST']);
    const tools = (await w.client.listTools()).tools;
    expect(tools.find((t) => t.name === 'update_action_item')?.annotations?.idempotentHint).toBe(true);
  });

  // The process's part only: its pacing under tight windows and its interval are tested in process
  // on a virtual clock (test/mcp/sync-every.test.ts).
  it('--sync-every: syncs in the background, reads answering meanwhile', async () => {
    const fresh = await mcpEnv(
      { pageSize: 10, sizes: { meetings: 4, actionItems: 6, people: 3, companies: 2 } },
      false,
    );
    try {
      const { call } = await start(fresh.env, ['--sync-every', '2s']);
      let status: Obj = {};
      for (let i = 0; i < 120; i++) {
        status = (await call('mirror_status')).data;
        if (status.lastSync?.complete) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(status.lastSync?.complete).toBe(true);
      expect((await call('list_meetings', { limit: 100 })).data.meetings.length).toBe(
        fresh.sandbox.snapshot().meetings.length,
      );
    } finally {
      await fresh.sandbox.close();
    }
  });

  it('no mirror yet: the server starts and the tools say to run mtg sync', async () => {
    const empty = await mcpEnv({}, false);
    try {
      const { call } = await start(empty.env, ['--offline']);
      const r = await call('search', { query: 'x' });
      expect(r).toMatchObject({ isError: true, text: 'no mirror for profile default: run `mtg sync`' });
      expect((await call('mirror_status')).isError).toBe(false);
    } finally {
      await empty.sandbox.close();
    }
  });
});

describe('the process', () => {
  /** Spawns `mtg mcp`, sends `lines`, and collects stdout; `end` closes stdin or signals. */
  function raw(env: Record<string, string>, lines: object[], end: 'stdin' | 'SIGTERM' | 'SIGINT') {
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const mtg = mtgCommand(['mcp']);
      const child = spawn(mtg.command, mtg.args, {
        env: { ...(baseEnv() as Record<string, string>), ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let ended = 0;
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        // Once every request is answered, end the session.
        if (!ended && stdout.split('\n').filter(Boolean).length >= lines.filter((l) => 'id' in l).length) {
          ended = 1;
          if (end === 'stdin') child.stdin.end();
          else child.kill(end);
          // Ended, it must exit by itself: a process still there is killed (and its code is null).
          setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
        }
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
      for (const l of lines) child.stdin.write(`${JSON.stringify(l)}\n`);
    });
  }
  const session = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'sql', arguments: { query: 'SELECT count(*) AS n FROM meetings' } },
    },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search', arguments: { query: 'the' } } },
  ];

  it('an invalid MTG_APP_URL: exit 2 with the line `mtg export markdown` gives, before serving anything', async () => {
    const env = { ...m.env, MTG_APP_URL: 'app.example.com' };
    const exported = await runCli(['export', 'markdown', `${tempDir('mtg-mcp-export-')}/out`], { env });
    expect(exported.code).toBe(2);
    expect(exported.stderr).toMatch(/^mtg: MTG_APP_URL is not a valid app URL \("app\.example\.com"\)/);
    const r = await raw(env, session, 'stdin');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(exported.stderr);
    expect(r.stdout).toBe('');
  });

  it.each(['stdin', 'SIGTERM', 'SIGINT'] as const)(
    'stdout holds only protocol messages; ends with exit 0 when %s ends it',
    async (end) => {
      const r = await raw(m.env, session, end);
      expect(r.code).toBe(0);
      const lines = r.stdout.split('\n').filter(Boolean);
      expect(lines.length).toBe(3);
      for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe('2.0');
    },
  );
});
