// Issue 29, item 1: `mtg mcp` as a real process with a runaway statement in its sql tool (a
// recursive CTE without end: one SQLite step that never returns to JavaScript). Calls sent with it
// and after it are answered, the statement past --timeout is isError and the server goes on; and
// closing stdin, SIGTERM or SIGINT end the server mid-query, exit 0, with the statement's process
// gone. The tool in-process: test/mcp/sql.test.ts.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../hardening/helpers.js';
import { BIN, baseEnv } from '../helpers/cli.js';
import { childrenOf, cpuSeconds, running, within } from '../helpers/processes.js';
import { type McpEnv, mcpEnv } from '../mcp/helpers.js';

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c';

let m: McpEnv;
beforeAll(async () => {
  m = await mcpEnv();
});
afterAll(async () => {
  await m?.sandbox.close();
});

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC messages, read by path in assertions
type Message = Record<string, any>;

interface Server {
  child: ChildProcessWithoutNullStreams;
  send(message: object): void;
  /** The answer to request `id` (bounded wait). */
  answer(id: number): Promise<Message>;
  /** The ids answered so far, in order. */
  answered(): number[];
  exited: Promise<number | null>;
}

const started: Server[] = [];
afterEach(() => {
  for (const s of started.splice(0)) s.child.kill('SIGKILL');
});

function serve(flags: string[] = []): Server {
  const child = spawn(process.execPath, [BIN, 'mcp', ...flags], {
    env: { ...(baseEnv() as Record<string, string>), ...m.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const messages: Message[] = [];
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buffer += d;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      messages.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
    }
  });
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const server: Server = {
    child,
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    async answer(id) {
      await waitUntil(() => messages.some((x) => x.id === id), 20_000, `the answer to ${id}`);
      return messages.find((x) => x.id === id)!;
    },
    answered: () => messages.filter((x) => 'id' in x).map((x) => x.id),
    exited,
  };
  started.push(server);
  server.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return server;
}

const call = (id: number, name: string, args: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('mtg mcp with a runaway statement', () => {
  it('answers the calls sent with it and after it; past --timeout it is isError and the server goes on', async () => {
    // A time limit well past what the calls behind it take on a loaded machine (two suites at once:
    // a second statement's process started in over 2 s once), so that their answers come first.
    const s = serve(['--timeout', '6']);
    s.send(call(2, 'sql', { query: RUNAWAY }));
    s.send(call(3, 'mirror_status'));
    s.send(call(4, 'sql', { query: 'SELECT count(*) AS n FROM meetings' }));
    expect((await s.answer(1)).result.serverInfo.name).toBe('mtg');
    expect((await s.answer(3)).result.isError).toBeFalsy();
    expect((await s.answer(4)).result.structuredContent.rows[0].n).toBeGreaterThan(0);
    const runaway = await s.answer(2);
    expect(runaway.result.isError).toBe(true);
    expect(runaway.result.content[0].text).toBe(
      'the statement ran longer than its time limit of 6 s and was stopped; narrow it (a WHERE, a LIMIT) or ask another tool',
    );
    // The runaway's answer came after the answers to the calls sent behind it.
    expect(s.answered().indexOf(2)).toBeGreaterThan(s.answered().indexOf(4));
    s.send(call(5, 'sql', { query: 'SELECT 1 AS one' }));
    expect((await s.answer(5)).result.structuredContent.rows).toEqual([{ one: 1 }]);
    s.child.stdin.end();
    expect(await within(s.exited, 10_000, 'mtg mcp')).toBe(0);
  }, 60_000);

  for (const end of ['stdin', 'SIGTERM', 'SIGINT'] as const) {
    it(`${end === 'stdin' ? 'closing stdin' : end} mid-query ends the server: exit 0, the statement's process gone`, async () => {
      const s = serve();
      s.send(call(2, 'sql', { query: RUNAWAY }));
      await s.answer(1);
      let statement = 0;
      await waitUntil(
        () => {
          statement = childrenOf(s.child.pid!)[0] ?? s.child.pid!;
          return cpuSeconds(statement) >= 0.5;
        },
        20_000,
        'the statement to run',
      );
      if (end === 'stdin') s.child.stdin.end();
      else s.child.kill(end);
      expect(await within(s.exited, 10_000, 'mtg mcp')).toBe(0);
      expect(running(statement)).toBe(false);
    }, 60_000);
  }
});
