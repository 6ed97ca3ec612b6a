// The sandbox binds loopback, but a web page can still reach a loopback port by DNS rebinding (its
// own name resolved to 127.0.0.1): it answers only requests whose Host is its own address, and its
// key is random per run, not derived from the seed (which anyone can know).
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';

const started: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.close()));
});

async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sb = await startSandbox({ limits: 'none', ...options });
  started.push(sb);
  return sb;
}

/** GET /companies with this Host header (fetch cannot set one). */
function getWithHost(sb: Sandbox, host: string): Promise<{ status: number; body: unknown }> {
  const url = new URL(sb.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port,
        path: '/companies',
        headers: { host, authorization: `Bearer ${sb.apiKey}` },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the sandbox answers only requests addressed to it', () => {
  it('bound to 127.0.0.1: 127.0.0.1:PORT and localhost:PORT are served, any other Host is 403 in the error envelope', async () => {
    const sb = await start();
    const port = new URL(sb.baseUrl).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`]) {
      expect((await getWithHost(sb, host)).status, host).toBe(200);
    }
    for (const host of [
      `evil.example:${port}`,
      `127.0.0.1:${Number(port) + 1}`,
      'localhost',
      `[::1]:${port}`,
    ]) {
      const r = await getWithHost(sb, host);
      expect(r.status, host).toBe(403);
      expect(r.body).toEqual({
        code: 'FORBIDDEN',
        error: `Host ${JSON.stringify(host.toLowerCase())} is not this sandbox's address (127.0.0.1:${port} or localhost:${port}): refused`,
      });
    }
    // Refused before anything is done: nothing changed, no rate-limit slot taken.
    expect(sb.requests.filter((r) => r.status === 403)).toHaveLength(4);
  });

  it('bound to ::1: [::1]:PORT and localhost:PORT are served, 127.0.0.1:PORT is not', async () => {
    const sb = await start({ host: '::1' });
    const port = new URL(sb.baseUrl).port;
    expect(sb.baseUrl).toBe(`http://[::1]:${port}`);
    expect((await getWithHost(sb, `[::1]:${port}`)).status).toBe(200);
    expect((await getWithHost(sb, `localhost:${port}`)).status).toBe(200);
    expect((await getWithHost(sb, `127.0.0.1:${port}`)).status).toBe(403);
    expect((await getWithHost(sb, `rebound.example:${port}`)).status).toBe(403);
  });
});

describe("the sandbox's key", () => {
  it('is random per run: two sandboxes of the same seed have different keys, each accepted only by its own', async () => {
    const [a, b] = await Promise.all([start({ seed: 7 }), start({ seed: 7 })]);
    expect(a.apiKey).toMatch(/^mtg_sk_sandbox_[0-9a-f]{24}$/);
    expect(b.apiKey).toMatch(/^mtg_sk_sandbox_[0-9a-f]{24}$/);
    expect(a.apiKey).not.toBe(b.apiKey);
    const status = async (sb: Sandbox, key: string) => {
      const res = await fetch(`${sb.baseUrl}/companies`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      return res.status;
    };
    expect(await status(a, a.apiKey)).toBe(200);
    expect(await status(a, b.apiKey)).toBe(401);
  });
});
