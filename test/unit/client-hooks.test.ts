// The client's request hooks (src/api/hooks.ts): what a subscriber sees of each HTTP attempt, that
// an unsubscribe ends it, that subscribers do not disturb each other, and the request budget a sync
// run puts on them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import {
  type Attempt,
  type AttemptOutcome,
  meterRequests,
  RequestBudgetReached,
} from '../../src/api/hooks.js';
import { openMirror } from '../../src/mirror/open.js';
import { runSync } from '../../src/mirror/sync.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { InterruptedError } from '../../src/shared/errors.js';
import { sandboxTest } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/temp.js';
import { clientFor, SMALL } from '../mirror/helpers.js';

// One sandbox for the sync runs of the file (they only read it, and count the requests they add).
const syncTest = sandboxTest({ seed: 7, limits: 'none', pageSize: 5, sizes: SMALL });
const servers: Server[] = [];
const clients: ApiClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A server whose n-th request (1-based) answers `statuses[n - 1]` (then 200), with a rate-limit report of `left = 100 - n`. */
async function client(statuses: number[] = [], warn?: (line: string) => void): Promise<ApiClient> {
  let n = 0;
  const server = createServer((_req, res) => {
    n++;
    res.writeHead(statuses[n - 1] ?? 200, {
      'content-type': 'application/json',
      'ratelimit-limit': '100',
      'ratelimit-remaining': String(100 - n),
      'ratelimit-reset': '60',
    });
    res.end(JSON.stringify({ n }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const c = new ApiClient({
    baseUrl: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    apiKey: 'mtg_sk_secretsecret1234',
    userAgent: 'mtg-test',
    timeoutMs: 2000,
    maxRetries: 3,
    maxWaitMs: 10_000,
    random: () => 0,
    warn,
  });
  clients.push(c);
  return c;
}

const get = (c: ApiClient, path = '/people') => c.request({ method: 'GET', path });

describe('client hooks', () => {
  it('a hook sees each attempt, a retry included, and its rate-limit report', async () => {
    const c = await client([500]);
    const seen: string[] = [];
    c.hooks.before((a) => seen.push(`before ${a.method} ${a.url.pathname}`));
    c.hooks.sent((a) => seen.push(`sent ${a.url.pathname}`));
    c.hooks.after((_a, o) =>
      seen.push(o.kind === 'answered' ? `after ${o.status} ${o.rate.remaining}/${o.rate.limit}` : o.kind),
    );
    await get(c);
    expect(seen).toEqual([
      'before GET /people',
      'sent /people',
      'after 500 99/100',
      'before GET /people',
      'sent /people',
      'after 200 98/100',
    ]);
  });

  it('passes one attempt object to its before, sent and after hooks', async () => {
    const c = await client();
    const attempts = new Set<Attempt>();
    c.hooks.before((a) => attempts.add(a));
    c.hooks.sent((a) => attempts.add(a));
    c.hooks.after((a) => attempts.add(a));
    await get(c);
    expect(attempts.size).toBe(1);
  });

  it('stops calling a hook once it unsubscribed', async () => {
    const c = await client();
    let calls = 0;
    const off = c.hooks.after(() => calls++);
    await get(c);
    off();
    off(); // twice is harmless
    await get(c);
    expect(calls).toBe(1);
  });

  it('keeps two subscribers apart: one unsubscribing or refusing leaves the other counting', async () => {
    const c = await client();
    const one = meterRequests(c.hooks);
    const two = meterRequests(c.hooks);
    const outcomes: AttemptOutcome['kind'][] = [];
    const offAfter = c.hooks.after((_a, o) => outcomes.push(o.kind));
    await get(c);
    one.stop();
    await get(c);
    expect([one.count(), two.count()]).toEqual([1, 2]);
    // A third with a budget of 0 refuses the next attempt: nothing is sent, and the others do not
    // count what was never sent.
    const none = meterRequests(c.hooks, 0);
    await expect(get(c)).rejects.toBeInstanceOf(RequestBudgetReached);
    expect([two.count(), none.count()]).toEqual([2, 0]);
    expect(outcomes).toEqual(['answered', 'answered', 'not-sent']);
    none.stop();
    await get(c);
    expect(two.count()).toBe(3);
    two.stop();
    offAfter();
  });

  // A subscriber's bug must not cost the client its pacing: the attempt's ticket is settled and the
  // other subscribers hear of it. (Before: the first request's ticket stayed in flight, and with no
  // report heard yet the limiter held every later request for good.)
  it('a sent or after hook that throws is reported, and the limiter and the other hooks go on', async () => {
    const warnings: string[] = [];
    const c = await client([], (line) => warnings.push(line));
    const seen: string[] = [];
    let throwSent = true;
    let throwAfter = false;
    c.hooks.sent(() => {
      if (throwSent) {
        throwSent = false;
        throw new Error('sent hook bug');
      }
    });
    c.hooks.sent(() => seen.push('sent'));
    c.hooks.after(() => {
      if (throwAfter) {
        throwAfter = false;
        throw new Error('after hook bug');
      }
    });
    c.hooks.after((_a, o) => seen.push(o.kind));
    await expect(get(c)).resolves.toMatchObject({ status: 200, data: { n: 1 } });
    expect(c.limiter.inFlight()).toBe(0);
    throwAfter = true;
    const pages = await Promise.all([get(c), get(c), get(c)]);
    expect(pages.map((p) => p.status)).toEqual([200, 200, 200]);
    expect(c.limiter.inFlight()).toBe(0);
    expect(seen.filter((s) => s === 'sent')).toHaveLength(4);
    expect(seen.filter((s) => s === 'answered')).toHaveLength(4);
    expect(warnings).toEqual([
      expect.stringContaining('sent hook bug'),
      expect.stringContaining('after hook bug'),
    ]);
  }, 10_000);

  it('a budget refuses the attempt past it before it waits, and counts retries', async () => {
    const c = await client([503]);
    const meter = meterRequests(c.hooks, 2);
    await get(c); // a 503 and its retry: both count
    expect(meter.count()).toBe(2);
    const err = await get(c).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestBudgetReached);
    expect(meter.count()).toBe(2);
    meter.stop();
  });
});

describe('runSync() on the client hooks', () => {
  function setup(sb: Sandbox) {
    const c = clientFor(sb, 30_000);
    clients.push(c);
    const mirror = openMirror({ profile: 'default', dataDir: tempDir('mtg-hooks-'), baseUrl: sb.baseUrl });
    return { sb, c, mirror };
  }

  syncTest(
    'stops at a budget of N requests, sending exactly N, and the next run on the same client is unbounded',
    async ({ sandbox }) => {
      const { sb, c, mirror } = setup(sandbox);
      try {
        const before = sb.requests.length;
        const stopped = await runSync(c, mirror, { budget: 4 });
        expect(stopped).toMatchObject({ complete: false, requests: 4 });
        expect(sb.requests.length - before).toBe(4);
        const all = await runSync(c, mirror, {});
        expect(all.complete).toBe(true);
        expect(all.requests).toBeGreaterThan(4);
      } finally {
        mirror.close();
      }
    },
  );

  syncTest(
    'ends the run at its signal (InterruptedError) without sending more, and the client goes on',
    async ({ sandbox }) => {
      const { sb, c, mirror } = setup(sandbox);
      try {
        const stop = new AbortController();
        let pages = 0;
        const sent = sb.requests.length;
        const err = await runSync(c, mirror, { signal: stop.signal }, (e) => {
          if (e.phase === 'meetings' && !e.done && ++pages === 1) stop.abort();
        }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(InterruptedError);
        // The first page, and at most the next one the walk had already asked for.
        expect(sb.requests.length - sent).toBeLessThanOrEqual(2);
        expect((await runSync(c, mirror, {})).complete).toBe(true);
      } finally {
        mirror.close();
      }
    },
  );
});
