// A proxy that drops or refuses CONNECT (issue 16, point 9). Before: undici reconnected at once,
// forever (over 100,000 CONNECTs in 40 s), ignoring --max-retries, --timeout and the first
// SIGINT/SIGTERM. Now every attempt counts, the message is plain, and a signal stops at once.
// The base URL is a non-loopback https URL (loopback is never proxied); nothing leaves the machine:
// the proxy is local and never tunnels anywhere.

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { spawnCli, waitUntil } from './helpers.js';

type Behaviour = (socket: Socket) => void;

let proxy: { server: Server; url: string; connections: () => number; sockets: Set<Socket> } | undefined;
afterEach(async () => {
  if (!proxy) return;
  for (const s of proxy.sockets) s.destroy();
  await new Promise<void>((resolve) => proxy!.server.close(() => resolve()));
  proxy = undefined;
});

async function startProxy(behaviour: Behaviour) {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    behaviour(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy = { server, url, connections: () => connections, sockets };
  return proxy;
}

const args = [
  'people',
  'list',
  '--max-retries',
  '1',
  '--timeout',
  '5',
  '--base-url',
  'https://example.invalid',
];
const env = (url: string) => ({ MTG_API_KEY: 'mtg_sk_proxyloop', HTTPS_PROXY: url, HTTP_PROXY: url });

describe('a proxy that does not open the tunnel', () => {
  it('closes the CONNECT: one connection per try, exit 1, a plain message', async () => {
    const p = await startProxy((socket) => socket.once('data', () => socket.destroy()));
    const r = await runCli(args, { env: env(p.url), timeoutMs: 15_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `mtg: GET /people failed: the proxy at ${p.url} closed the connection (after 2 tries)`,
    );
    expect(p.connections()).toBe(2);
  });

  it('answers CONNECT with 403: not retried, exit 1, says the proxy refused the tunnel', async () => {
    const p = await startProxy((socket) =>
      socket.once('data', () => socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n')),
    );
    const r = await runCli(args, { env: env(p.url), timeoutMs: 15_000 });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `mtg: GET /people failed: the proxy at ${p.url} refused the tunnel (HTTP 403) (after 1 try)`,
    );
    expect(r.stderr).not.toMatch(/HTTP Tunneling|!==/);
    expect(p.connections()).toBe(1);
  });

  it('stays silent: --timeout bounds each try', async () => {
    const p = await startProxy((socket) => socket.resume());
    const r = await runCli(
      ['people', 'list', '--max-retries', '0', '--timeout', '1', '--base-url', 'https://example.invalid'],
      {
        env: env(p.url),
        timeoutMs: 15_000,
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/within 1 s/);
    expect(r.stderr).toContain(p.url);
    expect(p.connections()).toBe(1);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} while the tunnel never opens stops at once: exit 130`, async () => {
      const p = await startProxy((socket) => socket.resume());
      const run = spawnCli(
        ['people', 'list', '--max-retries', '1', '--timeout', '30', '--base-url', 'https://example.invalid'],
        env(p.url),
      );
      try {
        await waitUntil(() => p.connections() > 0, 10_000, 'the CONNECT');
        run.child.kill(signal);
        const killer = setTimeout(() => run.child.kill('SIGKILL'), 5_000);
        const end = await run.done;
        clearTimeout(killer);
        expect(end.code).toBe(130);
      } finally {
        run.child.kill('SIGKILL');
      }
    });
  }
});
