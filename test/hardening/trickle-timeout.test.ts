// --timeout bounds the whole attempt, to the body's last byte (issue 20, item 2): a server that sends
// its headers and then one byte every half second is cut off like one that goes silent.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

let server: Server | undefined;
const timers = new Set<NodeJS.Timeout>();
let hits = 0;

afterEach(async () => {
  for (const t of timers) clearInterval(t);
  timers.clear();
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server!.close(r));
  }
  server = undefined;
  hits = 0;
});

/** Headers, `[`, then a space every 500 ms, never the end: no chunk is ever 2 s apart. */
async function trickling(): Promise<string> {
  server = createServer((req, res: ServerResponse) => {
    hits++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    const t = setInterval(() => res.write(' '), 500);
    timers.add(t);
    res.on('close', () => clearInterval(t));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const env = (url: string) => ({ MTG_BASE_URL: url, MTG_API_KEY: 'mtg_sk_trickle' });
const LIST = ['action-items', 'list', '--format', 'ndjson', '--timeout', '1'];

describe('--timeout against a body that trickles', () => {
  it('ends the attempt with exit 1 and one line naming --timeout', async () => {
    const url = await trickling();
    // The kill after 15 s is the bound: before the fix the command ran until killed.
    const r = await runCli([...LIST, '--max-retries', '0'], { env: env(url), timeoutMs: 15_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^mtg: GET \/action-items failed: the answer did not arrive in full within 1 s \(--timeout\) \(after 1 try\)\n$/,
    );
    expect(hits).toBe(1);
  }, 20_000);

  it('bounds each attempt when it retries', async () => {
    const url = await trickling();
    const r = await runCli([...LIST, '--max-retries', '2'], { env: env(url), timeoutMs: 15_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /the answer did not arrive in full within 1 s \(--timeout\) \(after 3 tries\)\n$/,
    );
    expect(hits).toBe(3);
  }, 20_000);
});
