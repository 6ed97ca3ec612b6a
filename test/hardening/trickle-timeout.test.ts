// --timeout bounds the whole attempt, to the body's last byte (issue 20, item 2): a server that sends
// its headers and then one byte at a time is cut off like one that goes silent. A write the server
// answered 2xx whose body then trickles (review finding 10) is not sent again, and is reported as a
// write that may have been applied, so that nobody re-runs a create blindly and makes a duplicate.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/inprocess.js';
import { runBounded } from './helpers.js';

let server: Server | undefined;
const timers = new Set<NodeJS.Timeout>();
let hits = 0;
let posts = 0;

afterEach(async () => {
  for (const t of timers) clearInterval(t);
  timers.clear();
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server!.close(r));
  }
  server = undefined;
  hits = 0;
  posts = 0;
});

/** `status`, the first byte of a body, then a space every `everyMs`, never the end. */
async function trickling(status: number, first: string, everyMs: number): Promise<string> {
  server = createServer((req, res) => {
    hits++;
    if (req.method === 'POST') posts++;
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.write(first);
    const t = setInterval(() => res.write(' '), everyMs);
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
    // No chunk is ever 1 s apart, so a timeout per chunk would never fire.
    const url = await trickling(200, '[', 500);
    // 15 s is the bound: before the fix the command ran until killed.
    const r = await runBounded([...LIST, '--max-retries', '0'], { env: env(url) }, 15_000);
    expect(r.finished).toBe(true);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^mtg: GET \/action-items failed: the answer did not arrive in full within 1 s \(--timeout\) \(after 1 try\)\n$/,
    );
    expect(hits).toBe(1);
  }, 20_000);

  it('bounds each attempt when it retries', async () => {
    const url = await trickling(200, '[', 500);
    const r = await runBounded([...LIST, '--max-retries', '2'], { env: env(url) }, 15_000);
    expect(r.finished).toBe(true);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /the answer did not arrive in full within 1 s \(--timeout\) \(after 3 tries\)\n$/,
    );
    expect(hits).toBe(3);
  }, 20_000);
});

describe('a create whose 201 body trickles past --timeout', () => {
  it('is sent once, exits 1, and says the write may have been applied', async () => {
    const url = await trickling(201, '{', 300);
    const r = await runInProcess(
      ['action-items', 'create', 'Send the roadmap', '--json', '--timeout', '1', '--max-retries', '3'],
      { env: env(url) },
    );
    expect(posts).toBe(1);
    expect(r.stdout).toBe('');
    // Exit 1 (a network error: the answer never completed), not 0: nothing is known to print.
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 201/);
    expect(r.stderr).toMatch(/may have been applied/);
    expect(r.stderr).not.toMatch(/no answer/);
  }, 20_000);
});
