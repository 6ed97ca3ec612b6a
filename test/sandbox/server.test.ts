import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as S from '../../src/api/schemas.js';
import {
  HOSTILE_ACTION_ITEM_ID,
  HOSTILE_MEETING_ID,
  type Sandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import { VirtualClock } from '../helpers/virtual-clock.js';
import { call, collect, nextPath } from './helpers.js';

const ok = <T extends z.ZodType>(schema: T, body: unknown) => {
  const r = schema.safeParse(body);
  if (!r.success)
    throw new Error(`schema mismatch: ${r.error.message}\n${JSON.stringify(body).slice(0, 500)}`);
  return r.data as z.infer<T>;
};
const list = <T extends z.ZodType>(schema: T, body: unknown) => ok(schema.array(), body) as z.infer<T>[];

describe('sandbox server', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ limits: 'none', pageSize: 7 });
  });
  afterAll(() => sb.close());

  it('pages through every item exactly once, with Link targets carrying the filters', async () => {
    const all = (await collect(sb, '/action-items?assigneeType=Anyone&status=ALL')) as { id: number }[];
    expect(all).toHaveLength(60);
    expect(new Set(all.map((a) => a.id)).size).toBe(60);
    const first = await call(sb, '/action-items?assigneeType=Anyone&status=ALL');
    const next = nextPath(first.headers)!;
    expect(next.startsWith('/action-items?')).toBe(true);
    const q = new URL(next, 'http://x').searchParams;
    expect(q.get('assigneeType')).toBe('Anyone');
    expect(q.get('status')).toBe('ALL');
    expect(q.get('cursor')).toBeTruthy();
    const meetings = (await collect(sb, '/meetings')) as { createdAt: string }[];
    expect(meetings).toHaveLength(30);
    const times = meetings.map((m) => Date.parse(m.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('rejects a cursor reused with other filters, or tampered with', async () => {
    const first = await call(sb, '/action-items?status=ALL');
    const cursor = new URL(nextPath(first.headers)!, 'http://x').searchParams.get('cursor')!;
    const reused = await call(sb, `/action-items?status=DONE&cursor=${encodeURIComponent(cursor)}`);
    expect(reused.status).toBe(400);
    const env = ok(S.ErrorEnvelope, reused.body);
    expect(env.code).toBe('VALIDATION_ERROR');
    expect(env.issues?.[0]?.path).toBe('cursor');
    const otherEndpoint = await call(sb, `/meetings?cursor=${encodeURIComponent(cursor)}`);
    expect(otherEndpoint.status).toBe(400);
    const tampered = `${cursor.slice(0, 3)}${cursor[3] === 'A' ? 'B' : 'A'}${cursor.slice(4)}`;
    const bad = await call(sb, `/action-items?status=ALL&cursor=${encodeURIComponent(tampered)}`);
    expect(bad.status).toBe(400);
    expect(ok(S.ErrorEnvelope, bad.body).issues?.[0]?.path).toBe('cursor');
  });

  it('answers 401 without or with a wrong key, 403 for a revoked key', async () => {
    const none = await call(sb, '/meetings', { key: null });
    expect(none.status).toBe(401);
    expect(ok(S.ErrorEnvelope, none.body).code).toBe('UNAUTHORIZED');
    expect((await call(sb, '/meetings', { key: 'nope' })).status).toBe(401);
    const revoked = await call(sb, '/meetings', { key: sb.revokedApiKey });
    expect(revoked.status).toBe(403);
    expect(ok(S.ErrorEnvelope, revoked.body).code).toBe('FORBIDDEN');
  });

  it('creates tags (201), updates them, and answers 409 on a duplicate name', async () => {
    const created = await call(sb, '/tag', { method: 'POST', body: { name: 'fresh', description: 'd' } });
    expect(created.status).toBe(201);
    const tag = ok(S.Tag, created.body);
    const dup = await call(sb, '/tag', { method: 'POST', body: { name: 'fresh', description: 'again' } });
    expect(dup.status).toBe(409);
    expect(ok(S.ErrorEnvelope, dup.body).code).toBe('CONFLICT');
    const renamed = await call(sb, `/tag/${tag.id}`, { method: 'PUT', body: { description: null } });
    expect(ok(S.Tag, renamed.body)).toEqual({ id: tag.id, name: 'fresh', description: null });
    const applied = await call(sb, '/tag', {
      method: 'PUT',
      body: { tagId: tag.id, meetingIds: [HOSTILE_MEETING_ID] },
    });
    const meetings = list(S.Meeting, applied.body);
    expect(meetings[0]?.tags.map((t) => t.id)).toContain(tag.id);
    expect(meetings[0]).not.toHaveProperty('sharedWith');
    const tagged = (await collect(sb, `/meetings?tagIds=${tag.id}`)) as { id: string }[];
    expect(tagged.map((m) => m.id)).toEqual([HOSTILE_MEETING_ID]);
    expect(
      (await call(sb, '/tag', { method: 'PUT', body: { tagId: tag.id, meetingIds: ['nope'] } })).status,
    ).toBe(404);
  });

  it('shares with 1..50 targets and reports per-target errors by index', async () => {
    const path = `/meeting/${HOSTILE_MEETING_ID}/share`;
    const many = Array.from({ length: 51 }, (_, i) => ({
      email: `u${i}@acmecorp.example`,
      access: 'Viewer',
    }));
    const tooMany = await call(sb, path, { method: 'PUT', body: many });
    expect(tooMany.status).toBe(400);
    expect(ok(S.ErrorEnvelope, tooMany.body).issues?.length).toBeGreaterThan(0);
    expect((await call(sb, path, { method: 'PUT', body: [] })).status).toBe(400);
    const mixed = await call(sb, path, {
      method: 'PUT',
      body: [
        { email: 'new.person@acmecorp.example', access: 'Editor' },
        { email: 'not-an-email', access: 'Viewer' },
        { email: 'x@invalid.example', access: 'Viewer' },
        { teamId: 1, access: 'Editor' },
        { teamId: 999, access: 'Viewer' },
      ],
    });
    expect(mixed.status).toBe(200);
    const m = ok(S.Meeting, mixed.body);
    expect(m.errors?.map((e) => e.index)).toEqual([1, 2, 4]);
    expect(
      m.sharedWith?.some((s) => s.email === 'new.person@acmecorp.example' && s.access === 'Editor'),
    ).toBe(true);
    expect(m.sharedWith?.some((s) => s.teamId === 1 && s.access === 'Editor')).toBe(true);
    const badAccess = await call(sb, path, {
      method: 'PUT',
      body: [{ email: 'a@acmecorp.example', access: 'Owner' }],
    });
    expect(badAccess.status).toBe(400);
    expect(ok(S.ErrorEnvelope, badAccess.body).issues?.[0]?.path).toBe('0.access');
  });

  it('validates queries, paths and bodies strictly', async () => {
    const cases: [string, Parameters<typeof call>[2], string][] = [
      ['/action-items?status=OPEN', {}, 'status'],
      ['/action-items?assigneeType=Profile', {}, 'assigneeProfileId'],
      ['/action-items?tagIds=3,7', {}, 'tagIds.0'],
      ['/action-items?bogus=1', {}, 'bogus'],
      ['/people?limit=0', {}, 'limit'],
      ['/action-item/0', { method: 'PUT', body: {} }, 'actionItemId'],
      ['/action-item/abc', { method: 'PUT', body: {} }, 'actionItemId'],
      ['/action-item/1', { method: 'PUT', rawBody: '{nope' }, ''],
      ['/action-item/1', { method: 'PUT', body: { color: 'red' } }, 'color'],
      ['/action-item/1', { method: 'PUT', body: { status: 'CLOSED' } }, 'status'],
      ['/action-item/1', { method: 'PUT', body: { title: 5 } }, 'title'],
      ['/action-items', { method: 'POST', body: {} }, 'title'],
      ['/tag', { method: 'PUT', body: { tagId: 1, meetingIds: [] } }, 'meetingIds'],
      ['/calendar/events/77/meeting', { method: 'PUT', body: { tagIds: [-1] } }, 'tagIds.0'],
      ['/calendar/events/77/meeting', { method: 'PUT', rawBody: '{}', contentType: 'text/plain' }, ''],
    ];
    for (const [path, init, issuePath] of cases) {
      const r = await call(sb, path, init);
      expect(r.status, path).toBe(400);
      const env = ok(S.ErrorEnvelope, r.body);
      expect(env.code).toBe('VALIDATION_ERROR');
      expect(
        env.issues?.map((i) => i.path),
        `${path} ${JSON.stringify(init)}`,
      ).toContain(issuePath);
    }
    for (const [path, method] of [
      ['/nope', 'GET'],
      ['/meeting/nope/transcript', 'GET'],
      ['/company/unknown.example', 'GET'],
      ['/companies', 'POST'],
    ] as const) {
      const r = await call(sb, path, { method, body: method === 'POST' ? {} : undefined });
      expect(r.status, path).toBe(404);
      expect(ok(S.ErrorEnvelope, r.body).code).toBe('NOT_FOUND');
    }
    expect((await call(sb, '/action-item/999999', { method: 'PUT', body: {} })).status).toBe(404);
  });

  it('sends bodies that validate against the schemas, on every endpoint', async () => {
    const r = (path: string, init?: Parameters<typeof call>[2]) =>
      call(sb, path, init).then((x) => {
        expect(x.status, path).toBeLessThan(300);
        return x.body;
      });
    for (const q of [
      '',
      '?assigneeType=Anyone&status=ALL',
      '?assigneeType=Unassigned',
      '?assigneeType=NotMe',
    ]) {
      list(S.ActionItem, await collect(sb, `/action-items${q}`));
    }
    const mine = list(S.ActionItem, await collect(sb, '/action-items'));
    expect(mine.every((a) => a.assignee?.profileId === 1 && a.status === 'PENDING')).toBe(true);
    expect(mine.map((a) => a.id)).toContain(HOSTILE_ACTION_ITEM_ID);
    const meetings = list(S.Meeting, await collect(sb, '/meetings'));
    expect(meetings.every((m) => m.sharedWith !== undefined)).toBe(true);
    list(S.Meeting, await collect(sb, '/search?searchTerm=budget'));
    const people = list(S.Person, await collect(sb, '/people'));
    expect(people).toHaveLength(40);
    expect(list(S.Person, await collect(sb, '/people?limit=10'))).toHaveLength(10);
    const companies = list(S.CompanySummary, await collect(sb, '/companies'));
    expect(companies.length).toBeGreaterThan(1);
    for (const c of companies) ok(S.CompanyDetail, await r(`/company/${c.domain}`));
    list(S.TranscriptEntry, await r(`/meeting/${HOSTILE_MEETING_ID}/transcript`));
    const created = ok(
      S.CreatedActionItem,
      await r('/action-items', { method: 'POST', body: { title: 'New one' } }),
    );
    const updated = ok(
      S.UpdatedActionItem,
      await r(`/action-item/${created.id}`, {
        method: 'PUT',
        body: { status: 'DONE', assigneeProfileId: null },
      }),
    );
    expect(updated.status).toBe('DONE');
    const done = list(S.ActionItem, await collect(sb, '/action-items?assigneeType=Unassigned&status=DONE'));
    expect(done.map((a) => a.id)).toContain(created.id);
    const cal = ok(
      S.Meeting,
      await r('/calendar/events/424242/meeting', { method: 'PUT', body: { privateNotes: 'x' } }),
    );
    expect(cal.privateNotes).toBe('x');
    expect(cal.calendarEvent?.id).toBe(424242);
    const again = ok(
      S.Meeting,
      await r('/calendar/events/424242/meeting', { method: 'PUT', body: { tagIds: [1] } }),
    );
    expect(again.id).toBe(cal.id);
    expect(again.privateNotes).toBe('x');
    const found = list(S.Meeting, await r(`/search?meetingIds=${cal.id}`));
    expect(found.map((m) => m.id)).toEqual([cal.id]);
  });

  it('records every request in arrival order', () => {
    expect(sb.requests.length).toBeGreaterThan(50);
    const at = sb.requests.map((x) => x.at);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(sb.requests.every((x) => x.status > 0)).toBe(true);
  });
});

describe('sandbox rate limits', () => {
  let sb: Sandbox;
  // The windows count time on a virtual clock: the test moves it past a window instead of waiting.
  const clock = new VirtualClock(Date.now());
  beforeAll(async () => {
    sb = await startSandbox({ plan: 'Free', limits: '3/1s,100/1m', clock });
  });
  afterAll(() => sb.close());

  it('answers the 4th request in a second with 429, Retry-After and RateLimit headers', async () => {
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await call(sb, '/companies'));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    for (const r of results) {
      expect(r.headers.get('ratelimit-limit')).toBe('3');
      expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    }
    expect(results.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0', '0', '0']);
    const limited = results[3]!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const env = ok(S.ErrorEnvelope, limited.body);
    expect(env.code).toBe('RATE_LIMITED');
    expect(env.error).toContain('Free plan');
    expect(sb.count429).toBe(2);
    // 429s consumed no budget: after the window, the minute window shows only 3 used.
    await clock.advance(1_050);
    const after = await call(sb, '/companies');
    expect(after.status).toBe(200);
  });
});

describe('sandbox rate limits across keys', () => {
  it('counts every key of the account in one budget, and still sends headers on 401', async () => {
    const sb = await startSandbox({ limits: '2/10s', apiKeys: ['key_a', 'key_b'] });
    try {
      expect((await call(sb, '/companies', { key: 'key_a' })).status).toBe(200);
      expect((await call(sb, '/companies', { key: 'key_b' })).status).toBe(200);
      const third = await call(sb, '/companies', { key: 'key_a' });
      expect(third.status).toBe(429);
      expect(ok(S.ErrorEnvelope, third.body).error).toBe(
        'Rate limit exceeded for the Pro plan (2 per 10 seconds)',
      );
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(9);
      const anonymous = await call(sb, '/companies', { key: null });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('ratelimit-remaining')).toBe('1');
    } finally {
      await sb.close();
    }
  });
});

describe('sandbox faults, latency, base path', () => {
  it('answers 500 INTERNAL with faults 500:1 and applies no mutation', async () => {
    const sb = await startSandbox({ faults: '500:1', limits: 'none' });
    try {
      const r = await call(sb, '/tag', { method: 'POST', body: { name: 'never' } });
      expect(r.status).toBe(500);
      expect(ok(S.ErrorEnvelope, r.body).code).toBe('INTERNAL');
    } finally {
      await sb.close();
    }
    const half = await startSandbox({ faults: '500:0.5', limits: 'none', seed: 3 });
    try {
      for (let i = 0; i < 5; i++) {
        let status = 500;
        for (let attempt = 0; attempt < 50 && status === 500; attempt++) {
          status = (await call(half, '/tag', { method: 'POST', body: { name: `t${i}` } })).status;
        }
        expect(status).toBe(201);
      }
    } finally {
      await half.close();
    }
  });

  it('resets and stalls connections; close() still ends promptly', async () => {
    const reset = await startSandbox({ faults: 'reset:1' });
    await expect(call(reset, '/meetings')).rejects.toThrow();
    await reset.close();
    const stall = await startSandbox({ faults: 'stall:1' });
    const res = await fetch(`${stall.baseUrl}/meetings`, {
      headers: { Authorization: `Bearer ${stall.apiKey}` },
    });
    expect(res.status).toBe(200);
    const body = res.text();
    // A stalled body never ends by itself: close() must cut it (the test's own time limit is the
    // guard against a close() that waits for it).
    await stall.close();
    await expect(body).rejects.toThrow();
  });

  it('adds latency without serializing requests, and serves under a base path', async () => {
    const sb = await startSandbox({ latencyMs: 200, basePath: '/v1' });
    try {
      expect(sb.baseUrl.endsWith('/v1')).toBe(true);
      const rs = await Promise.all([call(sb, '/meetings'), call(sb, '/companies'), call(sb, '/people')]);
      expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
      // Not one after another: the last of the three arrived while the sandbox was still answering
      // (holding for its latency) the other two.
      expect(sb.requests.map((q) => q.inFlight).sort()).toEqual([0, 1, 2]);
      expect(nextPath(rs[0]!.headers)?.startsWith('/v1/meetings?')).toBe(true);
      const outside = await fetch(`${new URL(sb.baseUrl).origin}/meetings`, {
        headers: { Authorization: `Bearer ${sb.apiKey}` },
      });
      expect(outside.status).toBe(404);
    } finally {
      await sb.close();
    }
  });
});

describe('sandbox determinism and size', () => {
  it('serves byte-identical data for the same seed', async () => {
    const bodies = async (seed: number) => {
      const sb = await startSandbox({ seed, limits: 'none' });
      try {
        const paths = ['/meetings', '/action-items?status=ALL&assigneeType=Anyone', '/people', '/companies'];
        const out = [];
        for (const p of paths) out.push(JSON.stringify(await collect(sb, p)));
        return { out };
      } finally {
        await sb.close();
      }
    };
    const a = await bodies(42);
    const b = await bodies(42);
    const c = await bodies(43);
    expect(a).toEqual(b);
    expect(c.out[0]).not.toEqual(a.out[0]);
  });

  // (How fast it starts is a speed target: bench/, not here.)
  it('starts with 100k action items and pages through them', async () => {
    const sb = await startSandbox({ sizes: { actionItems: 100_000 }, pageSize: 1000, limits: 'none' });
    try {
      const all = (await collect(sb, '/action-items?assigneeType=Anyone&status=ALL')) as { id: number }[];
      expect(all).toHaveLength(100_000);
      expect(new Set(all.map((x) => x.id)).size).toBe(100_000);
    } finally {
      await sb.close();
    }
  });
});
