// The API client against the sandbox over real HTTP: paging (every item once, cursors bound to their
// filters) and pacing (no 429 under tight windows; another client's 429 waited out). The pacing
// tests run the sandbox's windows and the client's waits on a virtual clock: seconds in milliseconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { paginate } from '../../src/api/paginate.js';
import { ActionItem } from '../../src/api/schemas.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { VirtualClock } from '../helpers/virtual-clock.js';

let sandbox: Sandbox;
const opened: ApiClient[] = [];

function clientFor(
  sb: { baseUrl: string; apiKey: string },
  over: Partial<ConstructorParameters<typeof ApiClient>[0]> = {},
) {
  const c = new ApiClient({
    baseUrl: new URL(sb.baseUrl),
    apiKey: sb.apiKey,
    userAgent: 'mtg-test',
    timeoutMs: 5000,
    maxRetries: 5,
    maxWaitMs: 30_000,
    ...over,
  });
  opened.push(c);
  return c;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, pageSize: 7, limits: '1000/1s' });
});

afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await sandbox.close();
});

describe('paging over real HTTP', () => {
  it('returns every action item across many pages exactly once', async () => {
    const before = sandbox.requests.length;
    const ids: number[] = [];
    for await (const item of paginate(clientFor(sandbox), {
      path: '/action-items',
      query: { assigneeType: 'Anyone', status: 'ALL' },
      item: ActionItem,
    })) {
      ids.push(item.id);
    }
    const pages = sandbox.requests.length - before;
    expect(pages).toBeGreaterThan(5);
    expect(ids.length).toBeGreaterThan(7 * 5);
    expect(new Set(ids).size).toBe(ids.length);
    // The next page's query carries the same filters and an untouched cursor.
    const second = sandbox.requests[before + 1]!;
    expect(second.query.get('assigneeType')).toBe('Anyone');
    expect(second.query.get('cursor')).toBeTruthy();
  });

  it('rejects a cursor reused with other filters, with the issue naming the cursor', async () => {
    const client = clientFor(sandbox);
    const first = await client.request({
      method: 'GET',
      path: '/action-items',
      query: { assigneeType: 'Anyone' },
    });
    const next = new URL(String(first.headers.link).match(/<([^>]+)>/)![1]!, sandbox.baseUrl);
    const cursor = next.searchParams.get('cursor')!;
    const err = await client
      .request({
        method: 'GET',
        path: '/action-items',
        query: { assigneeType: 'Anyone', status: 'DONE', cursor },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).details.some((d) => d.startsWith('cursor'))).toBe(true);
  });
});

describe('rate limits', () => {
  it('paces a paged export under tight windows without a single 429', async () => {
    const clock = new VirtualClock(Date.now(), { realIo: true });
    const sb = await startSandbox({ port: 0, pageSize: 5, limits: '4/1s', clock });
    try {
      let count = 0;
      const exported = async () => {
        for await (const _ of paginate(clientFor(sb, { clock }), {
          path: '/action-items',
          query: { assigneeType: 'Anyone', status: 'ALL' },
          item: ActionItem,
          limit: 45,
        })) {
          count++;
        }
      };
      const from = clock.now();
      await clock.settle(exported());
      expect(count).toBe(45);
      // 9 pages at 4 a second: the last two waited for the next second.
      expect(clock.now() - from).toBeGreaterThanOrEqual(2_000);
      expect(sb.count429).toBe(0);
    } finally {
      await sb.close();
    }
  });

  it('meets a 429 caused by another client of the account, waits Retry-After, and succeeds', async () => {
    const clock = new VirtualClock(Date.now(), { realIo: true });
    const sb = await startSandbox({ port: 0, limits: '2/1s', clock });
    try {
      // Another client of the same account uses up the window behind our back.
      for (let i = 0; i < 2; i++)
        await fetch(`${sb.baseUrl}/people?limit=1`, { headers: { authorization: `Bearer ${sb.apiKey}` } });
      const waits: string[] = [];
      const res = await clock.settle(
        clientFor(sb, { onWait: (w) => waits.push(w.reason), clock }).request({
          method: 'GET',
          path: '/people',
        }),
      );
      expect(res.status).toBe(200);
      expect(sb.count429).toBe(1);
      expect(waits).toContain('retry-after');
    } finally {
      await sb.close();
    }
  });
});
