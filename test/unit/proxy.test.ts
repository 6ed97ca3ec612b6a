// HTTPS_PROXY/HTTP_PROXY/NO_PROXY are honored (undici's EnvHttpProxyAgent), as people behind a
// company proxy expect. The proxy here tunnels every CONNECT to a small local API server, so the
// target host needs no DNS: only the proxy can reach it.
import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/inprocess.js';

const apiRequests: IncomingMessage[] = [];
const api = createServer((req, res) => {
  apiRequests.push(req);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('[]');
});
const tunnels: string[] = [];
const proxy = createServer();
proxy.on('connect', (req: IncomingMessage, client, head) => {
  tunnels.push(req.url ?? '');
  const upstream = connect((api.address() as AddressInfo).port, '127.0.0.1', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
});

let proxyUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const server of [api, proxy]) {
    server.closeAllConnections();
    server.close();
  }
});

// A name that never resolves (RFC 6761): only a proxy can answer for it.
const base = 'http://api.meeting-notes.invalid';
const env = { MTG_BASE_URL: base, MTG_API_KEY: 'mtg_sk_proxytest' };

describe('proxies', () => {
  it('sends requests through HTTP_PROXY, with the key only inside the tunnel', async () => {
    const before = apiRequests.length;
    const r = await runInProcess(['people', 'list', '--json', '--insecure'], {
      env: { ...env, HTTP_PROXY: proxyUrl },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(tunnels.at(-1)).toBe('api.meeting-notes.invalid:80');
    expect(apiRequests.length).toBe(before + 1);
    expect(apiRequests.at(-1)!.url).toBe('/people');
    expect(apiRequests.at(-1)!.headers.authorization).toBe('Bearer mtg_sk_proxytest');
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    const before = tunnels.length;
    const r = await runInProcess(['people', 'list', '--json', '--insecure', '--max-retries', '0'], {
      env: { ...env, HTTP_PROXY: proxyUrl, NO_PROXY: 'meeting-notes.invalid' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('GET /people failed');
    expect(tunnels.length).toBe(before);
  });

  it('never proxies loopback', async () => {
    const before = tunnels.length;
    const port = (api.address() as AddressInfo).port;
    const r = await runInProcess(['people', 'list', '--json'], {
      env: { ...env, MTG_BASE_URL: `http://127.0.0.1:${port}`, HTTP_PROXY: proxyUrl },
    });
    expect(r.code).toBe(0);
    expect(tunnels.length).toBe(before);
  });
});
