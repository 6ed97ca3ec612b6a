// The client waits and measures on the Clock it is given (ClientOptions.clock): its backoff, a 429's
// Retry-After (a date read against the clock's now), the limiter's pause and each attempt's
// --timeout. Here a clock that jumps instead of waiting, and a Transport (the client's one seam)
// that answers from a script: no socket, no real wait.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import type { Transport, TransportAnswer, TransportRequest } from '../../src/api/transport.js';
import type { Clock } from '../../src/shared/clock.js';

/** Time moves only when someone sleeps; a timeout fires when `firesTimeouts` (at once). */
function jumpingClock(start: number, firesTimeouts = false) {
  let now = start;
  const slept: number[] = [];
  const clock: Clock = {
    now: () => now,
    async sleep(ms) {
      slept.push(ms);
      now += Math.max(0, ms);
    },
    timeout(fn, ms) {
      if (!firesTimeouts) return () => undefined;
      const t = setImmediate(() => {
        now += ms;
        fn();
      });
      return () => clearImmediate(t);
    },
  };
  return { clock, slept };
}

type Scripted = Omit<TransportAnswer, 'text'> & { body?: unknown };

function scripted(answers: (Scripted | 'hang')[]) {
  const sent: TransportRequest[] = [];
  const transport: Transport = {
    async ready() {},
    async send(req, onHeaders) {
      sent.push(req);
      const next = answers.shift();
      if (next === undefined) throw new Error('no answer scripted');
      if (next === 'hang') {
        return new Promise((_, reject) =>
          req.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
        );
      }
      onHeaders(next.status);
      return { status: next.status, headers: next.headers, text: JSON.stringify(next.body ?? {}) };
    },
    async close() {},
  };
  return { transport, sent };
}

function clientWith(clock: Clock, transport: Transport, timeoutMs = 5000) {
  return new ApiClient({
    baseUrl: new URL('https://api.example.test'),
    apiKey: 'mtg_sk_clock',
    userAgent: 'mtg-test',
    timeoutMs,
    maxRetries: 3,
    maxWaitMs: 60_000,
    random: () => 0.5,
    clock,
    transport,
  });
}

const ok = { status: 200, headers: {}, body: { id: 1 } };

describe('the client on its Clock', () => {
  it('backs off between retries on the clock', async () => {
    const { clock, slept } = jumpingClock(Date.UTC(2031, 0, 1));
    const { transport, sent } = scripted([{ status: 503, headers: {} }, { status: 503, headers: {} }, ok]);
    const res = await clientWith(clock, transport).request({ method: 'GET', path: '/meetings' });
    expect(res.data).toEqual({ id: 1 });
    expect(sent).toHaveLength(3);
    // backoffMs with the random source at 0.5: 150 ms, then 300 ms.
    expect(slept).toEqual([150, 300]);
  });

  it("waits out a 429's Retry-After, an HTTP date read against the clock's now", async () => {
    const start = Date.UTC(2031, 0, 1);
    const { clock, slept } = jumpingClock(start);
    const retryAt = new Date(start + 20_000).toUTCString();
    const { transport, sent } = scripted([{ status: 429, headers: { 'retry-after': retryAt } }, ok]);
    const res = await clientWith(clock, transport).request({
      method: 'PUT',
      path: '/action-item/7',
      body: {},
    });
    expect(res.status).toBe(200);
    expect(sent).toHaveLength(2);
    // 20 s and the jitter (125 ms at 0.5), waited by the limiter on the same clock, within --max-wait.
    const waited = slept.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThanOrEqual(20_000);
    expect(waited).toBeLessThan(21_000);
  });

  it("holds every request for a 429's Retry-After: one waiting its turn is not let out as the 429 comes back", async () => {
    const { clock } = jumpingClock(Date.UTC(2031, 0, 1));
    const { transport, sent } = scripted([
      // The report says the window has room: only Retry-After holds the next request back.
      {
        status: 429,
        headers: {
          'retry-after': '2',
          'ratelimit-limit': '10',
          'ratelimit-remaining': '5',
          'ratelimit-reset': '1',
        },
      },
      ok,
      ok,
    ]);
    const sentAt: number[] = [];
    const timed: Transport = {
      ...transport,
      send(req, onHeaders) {
        sentAt.push(clock.now());
        return transport.send(req, onHeaders);
      },
    };
    const client = clientWith(clock, timed);
    const refusedAt = clock.now();
    // The second waits its turn behind the first (nothing is known of the windows yet).
    await Promise.all([
      client.request({ method: 'GET', path: '/meetings' }),
      client.request({ method: 'GET', path: '/people' }),
    ]);
    expect(sent.map((r) => new URL(r.url).pathname)).toEqual(['/meetings', '/meetings', '/people']);
    // Neither is sent before Retry-After has passed (2 s, plus its jitter).
    expect(sentAt[1]! - refusedAt).toBeGreaterThanOrEqual(2000);
    expect(sentAt[2]! - refusedAt).toBeGreaterThanOrEqual(2000);
  });

  it("ends an attempt that gets no answer at the clock's --timeout", async () => {
    const { clock } = jumpingClock(Date.UTC(2031, 0, 1), true);
    const { transport, sent } = scripted(['hang']);
    // Ten minutes of --timeout: on real time the test would time out long before.
    const request = clientWith(clock, transport, 600_000).request({
      method: 'POST',
      path: '/action-items',
      body: {},
    });
    await expect(request).rejects.toThrow(
      'POST /action-items failed: no answer within 600 s (--timeout); the write may have been applied: check before running it again (after 1 try)',
    );
    expect(sent).toHaveLength(1);
  });
});
