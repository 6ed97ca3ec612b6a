// A response body is bounded (src/api/client.ts, MAX_RESPONSE_BYTES = 64 MiB): a 400 MB page grew the
// process to 3.4 GB. Its bytes are counted as they arrive and reading stops past the bound (or at once
// when Content-Length says more): one line naming the size, exit 1, no retry.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES } from '../../src/api/client.js';
import { runInProcess } from '../helpers/inprocess.js';

const MiB = 1024 * 1024;
const PAGE_BYTES = 400 * MiB;

interface BigServer {
  baseUrl: string;
  /** Bytes of body written to the socket so far (all requests). */
  sent(): number;
  requests(): number;
  close(): Promise<void>;
}

let server: BigServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers every request with a 400 MB JSON array, streamed in 1 MiB chunks as the client reads. */
async function startBigServer(declareLength: boolean): Promise<BigServer> {
  let sent = 0;
  let requests = 0;
  const chunk = Buffer.alloc(MiB, 0x20); // spaces: valid JSON whitespace inside the array
  const http: Server = createServer((req, res) => {
    requests++;
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(declareLength ? { 'content-length': String(PAGE_BYTES + 2) } : {}),
    });
    res.write('[');
    let left = PAGE_BYTES;
    const pump = () => {
      // Bounded: at most 400 chunks, and it stops as soon as the client goes away.
      while (left > 0 && !res.destroyed) {
        left -= MiB;
        sent += MiB;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end(']');
    };
    req.socket.on('close', () => {
      left = 0;
    });
    pump();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sent: () => sent,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

const env = (s: BigServer) => ({
  MTG_BASE_URL: s.baseUrl,
  MTG_API_KEY: 'mtg_sk_test_body_limit',
  MTG_MAX_RETRIES: '3',
});

describe('a response body larger than 64 MiB', () => {
  it('streamed without a length: reading stops past the bound, one line naming it, exit 1, no retry', async () => {
    server = await startBigServer(false);
    const r = await runInProcess(['people', 'list', '--json'], { env: env(server) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/GET \/people answered with a body of more than 64 MiB/);
    expect(server.requests()).toBe(1);
    // Counted as it arrived: the server was stopped long before its 400 MB (socket buffers aside).
    expect(server.sent()).toBeGreaterThan(MAX_RESPONSE_BYTES - 8 * MiB);
    expect(server.sent()).toBeLessThan(MAX_RESPONSE_BYTES + 64 * MiB);
  });

  it('with a Content-Length over the bound: refused before reading, the size named', async () => {
    server = await startBigServer(true);
    const r = await runInProcess(['people', 'list', '--json'], { env: env(server) });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('GET /people answered with a body of 400.0 MiB (Content-Length), over 64 MiB');
    expect(server.requests()).toBe(1);
    expect(server.sent()).toBeLessThan(64 * MiB);
  });
});
