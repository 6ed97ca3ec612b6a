// A write the server answered 2xx whose body then trickles past --timeout (review finding 10): not
// sent again, and reported as a write that may have been applied, so that nobody re-runs a create
// blindly and makes a duplicate.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/inprocess.js';

let server: Server | undefined;
const timers = new Set<NodeJS.Timeout>();
let posts = 0;

afterEach(async () => {
  for (const t of timers) clearInterval(t);
  timers.clear();
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server!.close(r));
  }
  server = undefined;
  posts = 0;
});

/** 201 and the start of a body at once, then a space every 300 ms, never the end. */
async function createdThenTrickling(): Promise<string> {
  server = createServer((req, res) => {
    if (req.method === 'POST') posts++;
    req.resume();
    res.writeHead(201, { 'content-type': 'application/json' });
    res.write('{');
    const t = setInterval(() => res.write(' '), 300);
    timers.add(t);
    res.on('close', () => clearInterval(t));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a create whose 201 body trickles past --timeout', () => {
  it('is sent once, exits 1, and says the write may have been applied', async () => {
    const url = await createdThenTrickling();
    const r = await runInProcess(
      ['action-items', 'create', 'Send the roadmap', '--json', '--timeout', '1', '--max-retries', '3'],
      { env: { MTG_BASE_URL: url, MTG_API_KEY: 'mtg_sk_trickle' } },
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
