// A proxy that drops or refuses CONNECT (issue 16, point 9). Before: undici reconnected at once,
// forever (over 100,000 CONNECTs in 40 s), ignoring --max-retries, --timeout and the first
// SIGINT/SIGTERM. Now every attempt counts and the message is plain (a signal stopping at once:
// test/e2e/proxy-interrupt.test.ts).
// The base URL is a non-loopback https URL (loopback is never proxied); nothing leaves the machine:
// the proxy is local and never tunnels anywhere.

import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/inprocess.js';
import { runBounded } from './helpers.js';
import { type Behaviour, closeProxy, type LocalProxy, startProxy } from './proxy.js';

let proxy: LocalProxy | undefined;
afterEach(async () => {
  if (proxy) await closeProxy(proxy);
  proxy = undefined;
});

async function proxyThat(behaviour: Behaviour): Promise<LocalProxy> {
  proxy = await startProxy(behaviour);
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
    const p = await proxyThat((socket) => socket.once('data', () => socket.destroy()));
    const r = await runBounded(args, { env: env(p.url) }, 15_000);
    expect(r.finished).toBe(true);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `mtg: GET /people failed: the proxy at ${p.url} closed the connection (after 2 tries)`,
    );
    expect(p.connections()).toBe(2);
  });

  it('answers CONNECT with 403: not retried, exit 1, says the proxy refused the tunnel', async () => {
    const p = await proxyThat((socket) =>
      socket.once('data', () => socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n')),
    );
    const r = await runInProcess(args, { env: env(p.url) });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `mtg: GET /people failed: the proxy at ${p.url} refused the tunnel (HTTP 403) (after 1 try)`,
    );
    expect(r.stderr).not.toMatch(/HTTP Tunneling|!==/);
    expect(p.connections()).toBe(1);
  });

  it('stays silent: --timeout bounds each try', async () => {
    const p = await proxyThat((socket) => socket.resume());
    const r = await runBounded(
      ['people', 'list', '--max-retries', '0', '--timeout', '1', '--base-url', 'https://example.invalid'],
      { env: env(p.url) },
      15_000,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/within 1 s/);
    expect(r.stderr).toContain(p.url);
    expect(p.connections()).toBe(1);
  });
});
