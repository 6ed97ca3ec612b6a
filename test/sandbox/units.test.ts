import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as S from '../../src/api/schemas.js';
import { generateStore } from '../../src/sandbox/data.js';
import { FaultPicker } from '../../src/sandbox/faults.js';
import {
  HOSTILE_ACTION_ITEM_ID,
  HOSTILE_MEETING_ID,
  HOSTILE_PERSON_ID,
  HOSTILE_TAG_ID,
  parseFaults,
  parseLimits,
  runSandboxCommand,
} from '../../src/sandbox/index.js';
import { RateLimiter } from '../../src/sandbox/ratelimit.js';
import * as ser from '../../src/sandbox/serialize.js';

describe('parseLimits', () => {
  it('parses windows with units, and "none"', () => {
    expect(parseLimits('5/1s, 40/10s')).toEqual([
      { limit: 5, windowMs: 1000 },
      { limit: 40, windowMs: 10_000 },
    ]);
    expect(parseLimits('2/500ms,10/1m,100/1h')).toEqual([
      { limit: 2, windowMs: 500 },
      { limit: 10, windowMs: 60_000 },
      { limit: 100, windowMs: 3_600_000 },
    ]);
    expect(parseLimits('none')).toEqual([]);
  });
  it('throws one-line errors on bad input', () => {
    for (const bad of ['', '5', '0/1s', '5/0s', '5/1d', 'x/1s', '5/1s,', '-1/1s']) {
      expect(() => parseLimits(bad), bad).toThrow(/^[^\n]+$/);
    }
  });
});

describe('parseFaults', () => {
  it('parses rates and rejects bad ones', () => {
    expect(parseFaults('500:0.05,reset:0.02,stall:0.01')).toEqual([
      { kind: '500', probability: 0.05 },
      { kind: 'reset', probability: 0.02 },
      { kind: 'stall', probability: 0.01 },
    ]);
    expect(parseFaults('')).toEqual([]);
    for (const bad of ['503:0.1', '500', '500:2', '500:x', '500:0.6,reset:0.6', '500:0.1,500:0.1']) {
      expect(() => parseFaults(bad), bad).toThrow(/^[^\n]+$/);
    }
  });
  it('draws the same faults for the same seed', () => {
    const draw = (seed: number) => {
      const p = new FaultPicker(parseFaults('500:0.3,reset:0.2'), seed);
      return Array.from({ length: 200 }, () => p.next() ?? '-').join(',');
    };
    expect(draw(5)).toBe(draw(5));
    expect(draw(5)).not.toBe(draw(6));
    const counts = draw(5)
      .split(',')
      .filter((x) => x === '500').length;
    expect(counts).toBeGreaterThan(30);
    expect(counts).toBeLessThan(90);
  });
});

describe('RateLimiter', () => {
  it('uses fixed windows that start at the first request after the previous one ended', () => {
    const rl = new RateLimiter([{ limit: 2, windowMs: 1000 }]);
    expect(rl.take(100)?.allowed).toBe(true);
    expect(rl.take(600)?.state).toEqual({ limit: 2, remaining: 0, resetSeconds: 1 });
    const blocked = rl.take(700);
    expect(blocked?.allowed).toBe(false);
    expect(blocked && !blocked.allowed && blocked.retryAfterSeconds).toBe(1);
    // The window began at 100, so it ends at 1100; the next starts at 1500, not at 1100.
    expect(rl.take(1500)?.state).toEqual({ limit: 2, remaining: 1, resetSeconds: 1 });
    expect(rl.take(2400)?.allowed).toBe(true);
    expect(rl.take(2499)?.allowed).toBe(false);
  });
  it('reports the window closest to exhaustion and waits out every exhausted window', () => {
    const rl = new RateLimiter([
      { limit: 10, windowMs: 1000 },
      { limit: 3, windowMs: 60_000 },
    ]);
    expect(rl.take(0)?.state).toEqual({ limit: 3, remaining: 2, resetSeconds: 60 });
    rl.take(1);
    rl.take(2);
    const d = rl.take(3);
    expect(d?.allowed).toBe(false);
    expect(d && !d.allowed && d.retryAfterSeconds).toBe(60);
    expect(new RateLimiter([]).take(0)).toBeUndefined();
  });
});

describe('seed data', () => {
  it('serializes every record into a shape the schemas accept', () => {
    const store = generateStore(1);
    for (const m of store.meetings) {
      S.Meeting.parse(ser.meeting(store, m, { sharedWith: true }));
      S.TranscriptEntry.array().parse(m.transcript);
    }
    for (const a of store.actionItems) {
      S.ActionItem.parse(ser.actionItem(store, a));
      S.CreatedActionItem.parse(ser.createdActionItem(store, a));
      S.UpdatedActionItem.parse(ser.updatedActionItem(a));
    }
    for (const p of store.people) S.Person.parse(ser.person(store, p));
    for (const c of store.companies) S.CompanyDetail.parse(ser.companyDetail(store, c));
  });

  it('is varied enough for every table', () => {
    const store = generateStore(1);
    const items = store.actionItems;
    expect(items.some((a) => a.status === 'DONE') && items.some((a) => a.status === 'PENDING')).toBe(true);
    expect(items.some((a) => a.assigneeId === null) && items.some((a) => a.assigneeId === store.meId)).toBe(
      true,
    );
    const meetings = store.meetings;
    expect(meetings.some((m) => m.notes?.includes('**'))).toBe(true);
    expect(meetings.some((m) => m.privateNotes !== '')).toBe(true);
    const insights = meetings.flatMap((m) => Object.values(m.insights).flat());
    expect(insights.some((i) => typeof i.insight === 'string')).toBe(true);
    expect(insights.some((i) => typeof i.insight === 'object')).toBe(true);
    expect(store.companies.some((c) => c.externalLinks.length > 0)).toBe(true);
    expect(meetings.every((m) => m.attendees.length >= 2)).toBe(true);
  });

  it('plants hostile strings in the named records only', () => {
    const store = generateStore(1);
    const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
    const hostileMeeting = store.meetingsById.get(HOSTILE_MEETING_ID)!;
    expect(hostileMeeting.name).toMatch(/\u001b\[31m/);
    expect(hostileMeeting.name).toContain('\u0007');
    expect(hostileMeeting.transcript.some((t) => t.text.includes('\u001b]8;;'))).toBe(true);
    expect(store.actionItemsById.get(HOSTILE_ACTION_ITEM_ID)!.title.startsWith('=')).toBe(true);
    expect(store.profiles.get(HOSTILE_PERSON_ID)!.firstName!.startsWith('@')).toBe(true);
    expect(store.tags.get(HOSTILE_TAG_ID)!.name.startsWith('+')).toBe(true);
    // Walk the values: JSON.stringify would escape the very characters being looked for.
    const strings = (v: unknown): string[] =>
      typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];
    const tainted = (v: unknown) => strings(v).some((s) => control.test(s) || /^[=+@\t]/.test(s));
    const others = store.meetings.filter((m) => m.id !== HOSTILE_MEETING_ID);
    expect(
      others.filter((m) => tainted(ser.meeting(store, m, { sharedWith: true }))).map((m) => m.id),
    ).toEqual([]);
    const items = store.actionItems.filter((a) => a.id !== HOSTILE_ACTION_ITEM_ID);
    expect(items.filter((a) => tainted(ser.actionItem(store, a))).map((a) => a.id)).toEqual([]);
    expect(tainted(ser.meeting(store, hostileMeeting, { sharedWith: true }))).toBe(true);
  });

  it('is identical for the same seed and sizes', () => {
    const a = generateStore(9, { meetings: 12 });
    const b = generateStore(9, { meetings: 12 });
    expect(a.meetings.map((m) => ser.meeting(a, m, { sharedWith: true }))).toEqual(
      b.meetings.map((m) => ser.meeting(b, m, { sharedWith: true })),
    );
    expect(a.actionItems).toEqual(b.actionItems);
  });
});

describe('runSandboxCommand', () => {
  it('prints one JSON line, serves until stopped, then closes', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const controller = new AbortController();
    let out = '';
    stdout.on('data', (c) => {
      out += String(c);
    });
    const done = runSandboxCommand(
      { json: true, plan: 'Free' },
      { stdout, stderr, signal: controller.signal },
    );
    for (let i = 0; i < 100 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 10));
    const info = JSON.parse(out) as { baseUrl: string; apiKey: string; plan: string };
    expect(Object.keys(info)).toEqual(['baseUrl', 'apiKey', 'plan']);
    expect(info.plan).toBe('Free');
    const res = await fetch(`${info.baseUrl}/companies`, {
      headers: { Authorization: `Bearer ${info.apiKey}` },
    });
    expect(res.status).toBe(200);
    await res.text();
    controller.abort();
    await done;
    await expect(fetch(`${info.baseUrl}/companies`)).rejects.toThrow();
  });

  it('prints the human line with the export hint', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const controller = new AbortController();
    let out = '';
    stdout.on('data', (c) => {
      out += String(c);
    });
    const done = runSandboxCommand({}, { stdout, stderr, signal: controller.signal });
    for (let i = 0; i < 100 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await done;
    expect(out).toMatch(
      /^Sandbox listening on http:\/\/127\.0\.0\.1:\d+ \(plan Pro\) — export MTG_BASE_URL=\S+ MTG_API_KEY=\S+\n$/,
    );
  });
});
