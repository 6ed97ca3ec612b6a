// `mtg mcp` over its stdio transport: a line of stdin that is not JSON is answered with JSON-RPC's
// parse error (-32700, id null) and said on stderr; a line that is JSON but no JSON-RPC message with
// an invalid request (-32600, id null), said on stderr too; the server goes on serving either way.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { MirrorAccess } from '../../src/mcp/mirror-access.js';
import { serveStdio } from '../../src/mcp/server.js';
import { lineSplitter } from '../../src/mcp/stdio-transport.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

/** The server on streams; `send` writes raw text to its stdin; `answers` are its stdout's lines, parsed. */
function served() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const log: string[] = [];
  const answers: Record<string, unknown>[] = [];
  let buffered = '';
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n')) {
      answers.push(JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
    }
  });
  const controller = new AbortController();
  const access = { profile: 'default', path: '/nowhere', close: () => {} } as unknown as MirrorAccess;
  const done = serveStdio(access, {
    version: 'test',
    offline: true,
    allowWrites: false,
    log: (line) => log.push(line),
    stdin,
    stdout,
    signal: controller.signal,
  });
  const until = async (n: number) => {
    for (let i = 0; i < 200 && answers.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  };
  const stop = async () => {
    controller.abort();
    stdin.end();
    await done;
  };
  return { send: (text: string) => stdin.write(text), answers, log, until, stop };
}

describe('mtg mcp: lines of stdin that are no message', () => {
  it('a line that is not JSON: a parse error (-32700, id null) on stdout, a line on stderr; serving goes on', async () => {
    const s = served();
    try {
      s.send(`${JSON.stringify(INIT)}\n`);
      // Split across writes, as a pipe may deliver it; a blank line is nothing.
      s.send('this is not');
      s.send(' json\r\n\n');
      s.send(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`);
      await s.until(3);
      expect(s.answers).toHaveLength(3);
      const parseErrors = s.answers.filter((a) => (a.error as { code?: number })?.code === -32700);
      expect(parseErrors).toEqual([
        {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: expect.stringMatching(/^Parse error: /) },
        },
      ]);
      expect(s.answers.find((a) => a.id === 2)).toMatchObject({ result: {} });
      expect(s.log).toEqual([
        expect.stringMatching(
          /^mtg mcp: a line of stdin is not JSON \(.+\); answered a parse error \(-32700\)$/,
        ),
      ]);
    } finally {
      await s.stop();
    }
  });

  it('a line that is JSON but no JSON-RPC message: an invalid request (-32600, id null), a line on stderr; serving goes on', async () => {
    const s = served();
    try {
      s.send(`${JSON.stringify(INIT)}\n{"hello":"world"}\n`);
      s.send(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`);
      await s.until(3);
      expect(s.answers.find((a) => a.id === 2)).toMatchObject({ result: {} });
      expect(s.answers.filter((a) => a.id === null)).toEqual([
        {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) },
        },
      ]);
      expect(s.log).toEqual([
        expect.stringMatching(
          /^mtg mcp: a line of stdin is no JSON-RPC message \(.+\); answered an invalid request \(-32600\)$/,
        ),
      ]);
    } finally {
      await s.stop();
    }
  });
});

describe('lineSplitter', () => {
  it('gives each line once it completes, across chunks, without its newline', () => {
    const lines: string[] = [];
    const feed = lineSplitter((l) => lines.push(l), 16);
    feed(Buffer.from('ab'));
    feed(Buffer.from('c\nde\r\nf'));
    expect(lines).toEqual(['abc', 'de']);
    // Past the bound the partial line is dropped (the SDK gives up the connection then).
    feed(Buffer.from('x'.repeat(20)));
    feed(Buffer.from('g\n'));
    expect(lines).toEqual(['abc', 'de', 'g']);
  });
});
