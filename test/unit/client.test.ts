// The client against small hand-written servers: behaviour that must hold for any server, not only
// for our sandbox.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient } from '../../src/api/client.js';
import { ApiError, NetworkError, RateLimitExhaustedError, ResponseShapeError } from '../../src/api/errors.js';
import { paginate } from '../../src/api/paginate.js';
import type { WaitInfo } from '../../src/api/ratelimit.js';
import { ActionItem } from '../../src/api/schemas.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;
const servers: Server[] = [];
const clients: ApiClient[] = [];
const KEY = 'mtg_sk_secretsecret1234';

async function serve(handler: Handler): Promise<{ url: URL; hits: IncomingMessage[] }> {
  const hits: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    hits.push(req);
    handler(req, res, hits.length);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), hits };
}

function client(baseUrl: URL, over: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  const c = new ApiClient({
    baseUrl,
    apiKey: KEY,
    userAgent: 'mtg-test',
    timeoutMs: 2000,
    maxRetries: 3,
    maxWaitMs: 10_000,
    random: () => 0,
    ...over,
  });
  clients.push(c);
  return c;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const item = (id: number) => ({
  id,
  title: `t${id}`,
  description: '',
  assignee: null,
  status: 'PENDING',
  meetingIds: [],
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

describe('ApiClient', () => {
  it('sends the bearer key, JSON headers and a User-Agent', async () => {
    const { url, hits } = await serve((_req, res) => json(res, 200, []));
    await client(url).request({ method: 'POST', path: '/tag', body: { name: 'x' } });
    expect(hits[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(hits[0]!.headers['content-type']).toBe('application/json');
    expect(hits[0]!.headers['user-agent']).toBe('mtg-test');
  });

  it('retries a GET on 500 and succeeds', async () => {
    const { url, hits } = await serve((_req, res, n) =>
      n < 3 ? json(res, 500, { code: 'INTERNAL', error: 'boom' }) : json(res, 200, []),
    );
    const res = await client(url).request({ method: 'GET', path: '/people' });
    expect(res.data).toEqual([]);
    expect(hits.length).toBe(3);
  });

  it('gives up after --max-retries and says how many tries', async () => {
    const { url, hits } = await serve((_req, res) => json(res, 503, { code: 'INTERNAL', error: 'down' }));
    const err = await client(url, { maxRetries: 2 })
      .request({ method: 'GET', path: '/people' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('GET /people failed with HTTP 503: down (after 3 tries)');
    expect(hits.length).toBe(3);
  });

  it('never sends a POST twice when it may have been applied (500 or a dropped connection)', async () => {
    const five = await serve((_req, res) => json(res, 500, { code: 'INTERNAL', error: 'boom' }));
    await expect(
      client(five.url).request({ method: 'POST', path: '/action-items', body: { title: 'x' } }),
    ).rejects.toThrow('boom');
    expect(five.hits.length).toBe(1);

    const reset = await serve((req) => req.socket.destroy());
    const err = await client(reset.url)
      .request({ method: 'POST', path: '/action-items', body: { title: 'x' } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(reset.hits.length).toBe(1);
    // Whoever runs it again must know: it may exist already.
    expect(err.message).toMatch(
      /^POST \/action-items failed: .*; the write may have been applied: check before running it again \(after 1 try\)$/,
    );
  });

  it('says a write may have been applied only when it may have reached the server', async () => {
    // A port nothing listens on: the connection is refused, so the server never saw the POST.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const err = await client(new URL(`http://127.0.0.1:${port}`))
      .request({ method: 'POST', path: '/action-items', body: { title: 'x' } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/connection refused/);
    expect(err.message).not.toMatch(/may have been applied/);
    const reset = await serve((req) => req.socket.destroy());
    const put = await client(reset.url, { maxRetries: 0 })
      .request({ method: 'PUT', path: '/action-item/1', body: { title: 'x' } })
      .catch((e) => e);
    // A PUT is sent again when it can be: the same PUT twice changes nothing more.
    expect(put.message).not.toMatch(/may have been applied/);
  });

  it('retries a PUT whose connection was dropped', async () => {
    const { url, hits } = await serve((req, res, n) =>
      n === 1 ? req.socket.destroy() : json(res, 200, { ok: true }),
    );
    await client(url).request({ method: 'PUT', path: '/tag/1', body: {} });
    expect(hits.length).toBe(2);
  });

  it('abandons a response that stalls mid-body after --timeout and retries the GET', async () => {
    const { url, hits } = await serve((_req, res, n) => {
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[{"id":'); // then nothing
        return;
      }
      json(res, 200, []);
    });
    const res = await client(url, { timeoutMs: 300 }).request({ method: 'GET', path: '/people' });
    expect(res.data).toEqual([]);
    expect(hits.length).toBe(2);
  });

  it('waits Retry-After on 429, then succeeds', async () => {
    const waits: number[] = [];
    const events: string[] = [];
    const { url, hits } = await serve((_req, res, n) =>
      events.push(`request ${n}`) && n === 1
        ? json(
            res,
            429,
            { code: 'RATE_LIMITED', error: 'Rate limit exceeded for the Free plan' },
            { 'retry-after': '1' },
          )
        : json(res, 200, []),
    );
    const onWait = (w: WaitInfo) => {
      waits.push(w.ms);
      events.push(`wait ${w.reason}`);
    };
    // The wait on a virtual clock: the whole Retry-After passes on it, in milliseconds.
    const clock = new VirtualClock(Date.now(), { realIo: true });
    const from = clock.now();
    await clock.settle(client(url, { onWait, clock }).request({ method: 'GET', path: '/people' }));
    expect(clock.now() - from).toBeGreaterThanOrEqual(1_000);
    expect(hits.length).toBe(2);
    // The resend came only after the announced wait of the whole Retry-After (1 s).
    expect(events).toEqual(['request 1', 'wait retry-after', 'request 2']);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(950);
  });

  it('ends with a rate-limit error (exit 5) when 429 persists past the retries', async () => {
    const { url } = await serve((_req, res) =>
      json(res, 429, { code: 'RATE_LIMITED', error: 'slow down' }, { 'retry-after': '0' }),
    );
    const clock = new VirtualClock(Date.now(), { realIo: true });
    const err = await clock.settle(
      client(url, { maxRetries: 1, clock })
        .request({ method: 'GET', path: '/people' })
        .catch((e) => e),
    );
    expect(err).toBeInstanceOf(RateLimitExhaustedError);
    expect(err.exitCode).toBe(5);
  });

  it('does not follow redirects, so the key never travels to the Location', async () => {
    const other = await serve((_req, res) => json(res, 200, []));
    const { url } = await serve((_req, res) => {
      res.writeHead(302, { location: `${other.url.href}people` });
      res.end();
    });
    const err = await client(url)
      .request({ method: 'GET', path: '/people' })
      .catch((e) => e);
    expect(err.message).toContain('redirects are not followed');
    expect(other.hits.length).toBe(0);
  });

  it('refuses a next link to another origin and sends it nothing', async () => {
    const other = await serve((_req, res) => json(res, 200, [item(2)]));
    const { url } = await serve((_req, res) =>
      json(res, 200, [item(1)], { link: `<${other.url.href}action-items?cursor=x>; rel="next"` }),
    );
    const seen: number[] = [];
    const err = await (async () => {
      for await (const i of paginate(client(url), { path: '/action-items', item: ActionItem }))
        seen.push(i.id);
    })().catch((e) => e);
    expect(seen).toEqual([1]);
    expect(err.message).toContain('not the configured origin');
    expect(other.hits.length).toBe(0);
  });

  it('follows next links with the cursor untouched and stops fetching at --limit', async () => {
    const { url, hits } = await serve((req, res) => {
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('cursor') ?? '0');
      const next: Record<string, string> =
        page < 9 ? { link: `</action-items?cursor=${page + 1}&status=ALL>; rel="next"` } : {};
      json(res, 200, [item(page * 2 + 1), item(page * 2 + 2)], next);
    });
    const ids: number[] = [];
    for await (const i of paginate(client(url), {
      path: '/action-items',
      query: { status: 'ALL' },
      item: ActionItem,
      limit: 5,
    })) {
      ids.push(i.id);
    }
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(hits.length).toBe(3);
    expect(hits[1]!.url).toBe('/action-items?cursor=1&status=ALL');
  });

  it('names the field path when a response does not match the spec', async () => {
    // A status of the wrong type: an unlisted string passes (test/hardening/additive-api.test.ts).
    const { url } = await serve((_req, res) => json(res, 200, [item(1), { ...item(2), status: 5 }]));
    const err = await client(url)
      .request({ method: 'GET', path: '/action-items', schema: z.array(ActionItem) })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.details.join('\n')).toMatch(/^\[1\]\.status: /);
  });

  it('a page that does not match the spec stops pagination with the field path (compiled page schema)', async () => {
    const bad = [
      { ...item(2), status: 5 },
      { ...item(3), assignee: { profileId: -1 } },
      { ...item(4), meetingIds: [7] },
      { ...item(5), id: '5' },
    ];
    for (const wrong of bad) {
      const { url } = await serve((_req, res) => json(res, 200, [item(1), wrong]));
      const pages = paginate(client(url), { path: '/action-items', item: ActionItem });
      const err = await (async () => {
        for await (const _ of pages);
      })().catch((e) => e);
      expect(err, JSON.stringify(wrong)).toBeInstanceOf(ResponseShapeError);
      expect(err.details.join('\n')).toMatch(/^\[1\]\./);
    }
  });

  it('keeps the key out of every error message', async () => {
    const { url } = await serve((_req, res) =>
      json(res, 401, { code: 'UNAUTHORIZED', error: 'Invalid API key' }),
    );
    const err = await client(url)
      .request({ method: 'GET', path: '/people' })
      .catch((e) => e);
    expect(err.exitCode).toBe(3);
    expect(`${err.message}${err.details.join('')}`).not.toContain(KEY);
  });
});
