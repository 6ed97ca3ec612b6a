import { describe, expect, it } from 'vitest';
import { ApiError, RateLimitExhaustedError } from '../../src/api/errors.js';
import {
  type BulkResult,
  bulkExitCode,
  failureText,
  outcomeOf,
  runBulk,
  summarize,
} from '../../src/cli/bulk.js';
import { ExitCode, InterruptedError, UsageError } from '../../src/shared/errors.js';

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
const notFound = (id: number) =>
  new ApiError(404, 'NOT_FOUND', `Action item ${id} not found`, [], undefined, 'PUT', '/x');

describe('runBulk', () => {
  it('returns results in input order whatever the completion order', async () => {
    const items = [50, 10, 30, 0, 20];
    const results = await runBulk(items, async (ms) => {
      await delay(ms);
      return ms * 2;
    });
    expect(results).toEqual(items.map((ms) => ({ status: 'ok', value: ms * 2 })));
  });

  it('never runs more than `concurrency` workers at once, and does run them concurrently', async () => {
    let running = 0;
    let peak = 0;
    await runBulk(
      Array.from({ length: 20 }, (_, i) => i),
      async () => {
        running++;
        peak = Math.max(peak, running);
        await delay(5);
        running--;
      },
      { concurrency: 4 },
    );
    expect(peak).toBe(4);
  });

  it('defaults to 8 at once', async () => {
    let running = 0;
    let peak = 0;
    await runBulk(Array.from({ length: 30 }), async () => {
      running++;
      peak = Math.max(peak, running);
      await delay(2);
      running--;
    });
    expect(peak).toBe(8);
  });

  it('keeps going after failures and reports each one', async () => {
    const results = await runBulk([1, 2, 3, 4], async (n) => {
      if (n % 2 === 0) throw notFound(n);
      return n;
    });
    expect(results.map((r) => r.status)).toEqual(['ok', 'failed', 'ok', 'failed']);
    expect(summarize(results)).toEqual({ total: 4, ok: 2, failed: 2, notSent: 0, skipped: 0 });
  });

  it('calls onResult in input order, one at a time', async () => {
    const seen: number[] = [];
    let inside = false;
    await runBulk(
      [30, 5, 20, 1, 10],
      async (ms) => {
        await delay(ms);
        return ms;
      },
      {
        concurrency: 5,
        onResult: async (_r, index) => {
          expect(inside).toBe(false);
          inside = true;
          await delay(1);
          seen.push(index);
          inside = false;
        },
      },
    );
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('stops starting items once the signal is aborted; the rest are skipped', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const results = await runBulk(
      Array.from({ length: 10 }, (_, i) => i),
      async (i) => {
        started.push(i);
        if (i === 2) controller.abort();
        await delay(1);
        return i;
      },
      { concurrency: 2, signal: controller.signal },
    );
    expect(started.length).toBeLessThanOrEqual(4);
    expect(results.slice(started.length).every((r) => r.status === 'skipped')).toBe(true);
    expect(bulkExitCode(results)).toBe(ExitCode.interrupted);
  });

  it('counts an item interrupted in flight as skipped (sent: it may have been applied), not failed', async () => {
    const results = await runBulk([1], async () => {
      throw new InterruptedError(true);
    });
    expect(results).toEqual([{ status: 'skipped', sent: true }]);
  });

  it('counts an item interrupted before it reached the server (its turn, a 429 waited out) as not sent', async () => {
    const results = await runBulk([1], async () => {
      throw new InterruptedError();
    });
    expect(results).toEqual([{ status: 'skipped', sent: false }]);
  });

  it('handles an empty list', async () => {
    expect(await runBulk([], async () => 1)).toEqual([]);
  });
});

describe('bulkExitCode', () => {
  const ok: BulkResult<number> = { status: 'ok', value: 1 };
  const failed = (error: unknown): BulkResult<number> => ({ status: 'failed', error });

  it('is 0 when everything applied', () => {
    expect(bulkExitCode([ok, ok])).toBe(0);
  });
  it('is 6 when some failed and others applied', () => {
    expect(bulkExitCode([ok, failed(notFound(2))])).toBe(ExitCode.partial);
  });
  it("is the first failure's own code when all failed", () => {
    expect(bulkExitCode([failed(notFound(1)), failed(notFound(2))])).toBe(ExitCode.notFound);
    const auth = new ApiError(401, 'UNAUTHORIZED', 'bad key', [], undefined, 'PUT', '/x');
    expect(bulkExitCode([failed(auth), failed(notFound(2))])).toBe(ExitCode.auth);
    expect(bulkExitCode([failed(new Error('bug'))])).toBe(ExitCode.api);
  });
});

describe('a batch stopped by a rejected key', () => {
  it('starts no item after a 401, counts the rest as not sent (not failed), and exits 3', async () => {
    const auth = new ApiError(401, 'UNAUTHORIZED', 'bad key', [], undefined, 'PUT', '/x');
    let started = 0;
    const results = await runBulk(
      Array.from({ length: 10 }, (_, i) => i),
      async () => {
        started++;
        throw auth;
      },
      { concurrency: 2 },
    );
    expect(started).toBe(2);
    expect(results.filter((r) => r.status === 'stopped')).toHaveLength(8);
    expect(summarize(results)).toEqual({ total: 10, ok: 0, failed: 2, notSent: 8, skipped: 0 });
    expect(bulkExitCode(results)).toBe(ExitCode.auth);
    expect(outcomeOf(results[9]!)).toEqual({ outcome: 'not-sent', reason: 'key-rejected' });
  });

  it('a 403 may be about one item: the batch goes on after one, and stops at a second', async () => {
    const forbidden = new ApiError(403, 'FORBIDDEN', 'not yours', [], undefined, 'PUT', '/x');
    const once = await runBulk(
      Array.from({ length: 6 }, (_, i) => i),
      async (i) => {
        if (i === 1) throw forbidden;
        return i;
      },
      { concurrency: 1 },
    );
    expect(once.map((r) => r.status)).toEqual(['ok', 'failed', 'ok', 'ok', 'ok', 'ok']);
    const twice = await runBulk(
      Array.from({ length: 6 }, (_, i) => i),
      async (i) => {
        if (i === 1 || i === 3) throw forbidden;
        return i;
      },
      { concurrency: 1 },
    );
    expect(twice.map((r) => r.status)).toEqual(['ok', 'failed', 'ok', 'failed', 'stopped', 'stopped']);
  });
});

describe('failureText', () => {
  it('includes validation issues', () => {
    const err = new ApiError(
      400,
      'VALIDATION_ERROR',
      'Validation failed',
      [{ path: 'title', message: 'must not be blank' }],
      undefined,
      'PUT',
      '/x',
    );
    expect(failureText(err)).toBe('Validation failed (title: must not be blank)');
    expect(failureText(new UsageError('nope'))).toBe('nope');
    expect(failureText('plain')).toBe('plain');
  });
});

describe('outcomeOf: what a batch prints in json/ndjson for an item not applied', () => {
  it.each([
    [{ status: 'ok', value: {} }, undefined],
    [
      { status: 'skipped', sent: false },
      { outcome: 'not-sent', reason: 'interrupted' },
    ],
    [
      { status: 'skipped', sent: true },
      { outcome: 'failed', error: { message: 'interrupted after it was sent: it may have been applied' } },
    ],
    [
      { status: 'failed', error: new RateLimitExhaustedError('Still rate-limited') },
      { outcome: 'not-sent', reason: 'max-wait' },
    ],
    [
      {
        status: 'failed',
        error: new ApiError(
          404,
          'NOT_FOUND',
          'Action item 9 not found',
          [],
          undefined,
          'PUT',
          '/action-item/9',
        ),
      },
      { outcome: 'failed', error: { message: 'Action item 9 not found', status: 404, code: 'NOT_FOUND' } },
    ],
  ] as [BulkResult<unknown>, unknown][])('%j', (result, outcome) => {
    expect(outcomeOf(result)).toEqual(outcome);
  });
});
