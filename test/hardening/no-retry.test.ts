// Retries that cannot help are not made (issue 20, item 5): a name that does not resolve and a TLS
// certificate that is refused fail at once; a refused connection is tried once more, quickly. Each
// is one line naming the cause.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';
import { waitUntil } from './helpers.js';

let dir: string;
let server: Server | undefined;
beforeEach(() => {
  dir = tempDir('mtg-no-retry-');
});
afterEach(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server!.close(r));
  }
  server = undefined;
});

const run = (baseUrl: string, extra: string[] = []) =>
  runInProcess(['people', 'list', '--format', 'ndjson', '--max-retries', '5', ...extra], {
    env: { MTG_BASE_URL: baseUrl, MTG_API_KEY: 'mtg_sk_noretry', MTG_CONFIG_DIR: dir },
  });

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

describe('network errors another try cannot mend', () => {
  it('a refused connection is tried once more, then one line', async () => {
    const r = await run(`http://127.0.0.1:${await closedPort()}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^mtg: GET \/people failed: connection refused .*\(after 2 tries\)\n$/);
  });

  it('a host name that does not resolve is not retried', async () => {
    // .invalid never resolves (RFC 2606), online or not.
    const r = await run('http://api.example.invalid', ['--insecure']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^mtg: GET \/people failed: host not found: api\.example\.invalid .*\(after 1 try\)\n$/,
    );
  });

  it('a TLS certificate for another name is not retried', async () => {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=other.example',
      ],
      { stdio: 'ignore', input: '' },
    );
    let handshakes = 0;
    server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
      res.end('[]');
    });
    server.on('tlsClientError', () => handshakes++);
    server.on('secureConnection', () => handshakes++);
    let opened = 0;
    let closed = 0;
    server.on('connection', (socket: Socket) => {
      opened++;
      socket.on('close', () => closed++);
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const r = await run(`https://127.0.0.1:${(server.address() as AddressInfo).port}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^mtg: GET \/people failed: the TLS certificate of 127\.0\.0\.1:\d+ was refused: .*\(after 1 try\)\n$/,
    );
    // mtg ran in this process: the server handles the refused handshake after run() returns.
    await waitUntil(() => opened > 0 && closed === opened, 5_000, 'the server to see every connection end');
    expect(handshakes).toBe(1);
  });
});
