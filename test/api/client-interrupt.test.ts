// Ctrl-C while a write waits between tries: the InterruptedError says whether what it cut off may
// have been applied (src/cli/bulk.ts reports the item `failed` then, else `not-sent`). A 429
// applied nothing; a 5xx or a request cut off in flight may have. A Transport answers from a
// script, and the clock's first sleep is where Ctrl-C comes.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import type { Transport } from '../../src/api/transport.js';
import type { Clock } from '../../src/shared/clock.js';
import { InterruptedError } from '../../src/shared/errors.js';

/** A PUT whose first answer is `status` ('hang': none), interrupted at the first wait or in flight. */
async function interruptedAfter(status: number | 'hang'): Promise<unknown> {
  const ctrlC = new AbortController();
  let now = Date.UTC(2031, 0, 1);
  const clock: Clock = {
    now: () => now,
    async sleep(ms) {
      now += ms;
      ctrlC.abort();
    },
    timeout: () => () => undefined,
  };
  const transport: Transport = {
    async ready() {},
    async send(req, onHeaders) {
      if (status === 'hang') {
        queueMicrotask(() => ctrlC.abort());
        return new Promise((_, reject) =>
          req.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
        );
      }
      onHeaders(status);
      return { status, headers: status === 429 ? { 'retry-after': '5' } : {}, text: '{"error":"no"}' };
    },
    async close() {},
  };
  const client = new ApiClient({
    baseUrl: new URL('https://api.example.test'),
    apiKey: 'mtg_sk_test',
    userAgent: 'mtg-test',
    timeoutMs: 5000,
    maxRetries: 3,
    maxWaitMs: 60_000,
    random: () => 0.5,
    clock,
    transport,
    signal: ctrlC.signal,
  });
  return client.request({ method: 'PUT', path: '/action-item/7', body: { status: 'DONE' } }).catch((e) => e);
}

describe('Ctrl-C while a write is between tries', () => {
  it('waiting out a 429: nothing was applied', async () => {
    const err = await interruptedAfter(429);
    expect(err).toBeInstanceOf(InterruptedError);
    expect((err as InterruptedError).sent).toBe(false);
  });

  it('backing off after a 503, or cut off in flight: it may have been applied', async () => {
    for (const status of [503, 'hang'] as const) {
      const err = await interruptedAfter(status);
      expect(err, String(status)).toBeInstanceOf(InterruptedError);
      expect((err as InterruptedError).sent, String(status)).toBe(true);
    }
  });
});
