// Churn: the sandbox changes its data deterministically and never breaks the spec while doing so.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ActionItem, CompanySummary, Meeting, Person, TranscriptEntry } from '../../src/api/schemas.js';
import {
  type ChurnReport,
  parseChurn,
  type Sandbox,
  type SandboxSnapshot,
  startSandbox,
} from '../../src/sandbox/index.js';
import { BIN } from '../helpers/cli.js';
import { call, collect, nextPath } from './helpers.js';

const open: Sandbox[] = [];
async function sandbox(opts: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sb = await startSandbox({ limits: 'none', ...opts });
  open.push(sb);
  return sb;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((sb) => sb.close()));
});

const keys = (o: object) => Object.keys(o).sort().join(',');

/** Key sets seen per shape in a snapshot (a meeting's set varies only by the optional recordingUrl). */
function keySets(s: SandboxSnapshot): Record<string, Set<string>> {
  return {
    meeting: new Set(s.meetings.map(keys)),
    attendee: new Set(s.meetings.flatMap((m) => m.attendees.map(keys))),
    nestedItem: new Set(s.meetings.flatMap((m) => m.actionItems.map(keys))),
    actionItem: new Set(s.actionItems.map(keys)),
    person: new Set(s.people.map(keys)),
    company: new Set(s.companies.map(keys)),
    transcript: new Set(Object.values(s.transcripts).flatMap((t) => t.map(keys))),
  };
}

function assertValid(s: SandboxSnapshot): void {
  for (const m of s.meetings) Meeting.parse(m);
  for (const a of [...s.actionItems, ...s.myActionItems]) ActionItem.parse(a);
  for (const p of s.people) Person.parse(p);
  for (const c of s.companies) CompanySummary.parse(c);
  for (const t of Object.values(s.transcripts)) for (const e of t) TranscriptEntry.parse(e);
  const unique = (ids: unknown[]) => expect(new Set(ids).size).toBe(ids.length);
  unique(s.meetings.map((m) => m.id));
  unique(s.actionItems.map((a) => a.id));
  unique(s.people.map((p) => p.id));
  unique(s.companies.map((c) => c.domain));
  const created = s.meetings.map((m) => Date.parse(m.createdAt));
  for (let i = 1; i < created.length; i++) expect(created[i]).toBeLessThanOrEqual(created[i - 1]!);
  for (const m of s.meetings) expect(Date.parse(m.updatedAt)).toBeGreaterThanOrEqual(Date.parse(m.createdAt));
  // Every reference points at something that exists.
  const meetingIds = new Set(s.meetings.map((m) => m.id));
  const itemIds = new Set(s.actionItems.map((a) => a.id));
  for (const a of s.actionItems) for (const id of a.meetingIds) expect(meetingIds.has(id)).toBe(true);
  for (const m of s.meetings) for (const a of m.actionItems) expect(itemIds.has(a.id)).toBe(true);
  expect(s.myActionItems.every((a) => a.assignee?.profileId === 1)).toBe(true);
  expect(Object.keys(s.transcripts).sort()).toEqual([...meetingIds].sort());
}

function merge(into: ChurnReport, r: ChurnReport): void {
  into.rounds += r.rounds;
  for (const group of ['meetings', 'actionItems', 'people', 'companies'] as const) {
    const target = into[group] as Record<string, unknown[]>;
    for (const [kind, ids] of Object.entries(r[group] as Record<string, unknown[]>)) {
      target[kind]!.push(...ids);
    }
  }
}

describe('churn is deterministic', () => {
  it('gives the same snapshots and reports for the same seed, other ones for another seed', async () => {
    const [a, b, c] = await Promise.all([sandbox({ seed: 5 }), sandbox({ seed: 5 }), sandbox({ seed: 6 })]);
    const plain = await sandbox({ seed: 5 });
    // The initial data does not depend on churn being enabled.
    const withChurn = await sandbox({ seed: 5, churn: '1/1h' });
    expect(withChurn.snapshot()).toEqual(plain.snapshot());
    for (let i = 0; i < 15; i++) {
      expect(a.churn(2)).toEqual(b.churn(2));
      expect(a.snapshot()).toEqual(b.snapshot());
    }
    c.churn(30);
    expect(c.snapshot()).not.toEqual(a.snapshot());
  });
});

describe('churn keeps the spec', () => {
  it('after every round: all objects valid, ids unique and never reused, newest first, field sets unchanged', async () => {
    const sb = await sandbox({ seed: 11 });
    const first = sb.snapshot();
    assertValid(first);
    const allowed = keySets(first);
    const deletedMeetings = new Set<string>();
    const deletedItems = new Set<number>();
    const removedPeople = new Set<number>();
    let before = first;
    const total = sb.churn(0);
    for (let round = 0; round < 150; round++) {
      const report = sb.churn();
      merge(total, report);
      const s = sb.snapshot();
      assertValid(s);
      for (const [shape, seen] of Object.entries(keySets(s))) {
        for (const k of seen) expect(allowed[shape], `${shape} keys ${k}`).toContain(k);
      }
      for (const id of report.meetings.deleted) deletedMeetings.add(id);
      for (const id of report.actionItems.deleted) deletedItems.add(id);
      for (const id of report.people.removed) removedPeople.add(id);
      expect(s.meetings.filter((m) => deletedMeetings.has(m.id))).toEqual([]);
      expect(s.actionItems.filter((a) => deletedItems.has(a.id))).toEqual([]);
      expect(s.people.filter((p) => removedPeople.has(p.id))).toEqual([]);
      // A changed transcript always comes with a later updatedAt, so a client knows to refetch it.
      const old = new Map(before.meetings.map((m) => [m.id, m]));
      for (const m of s.meetings) {
        const prev = old.get(m.id);
        if (!prev) continue;
        if (JSON.stringify(s.transcripts[m.id]) !== JSON.stringify(before.transcripts[m.id])) {
          expect(Date.parse(m.updatedAt)).toBeGreaterThan(Date.parse(prev.updatedAt));
        }
        if (m.name !== prev.name || m.notes !== prev.notes) {
          expect(Date.parse(m.updatedAt)).toBeGreaterThan(Date.parse(prev.updatedAt));
        }
      }
      before = s;
    }
    // Over enough rounds, every kind of change happens.
    expect(total.rounds).toBe(150);
    for (const [group, kinds] of Object.entries(total)) {
      if (group === 'rounds') continue;
      for (const [kind, ids] of Object.entries(kinds as Record<string, unknown[]>)) {
        expect(ids.length, `${group}.${kind}`).toBeGreaterThan(0);
      }
    }
    // Deleted meetings' transcripts are gone over HTTP too.
    const gone = [...deletedMeetings][0]!;
    expect((await call(sb, `/meeting/${gone}/transcript`)).status).toBe(404);
    const search = (await collect(sb, `/search?meetingIds=${gone}`)) as unknown[];
    expect(search).toEqual([]);
    expect((await collect(sb, '/meetings')).some((m) => (m as { id: string }).id === gone)).toBe(false);
  });

  it('reports completed and reopened items with the status they now have', async () => {
    const sb = await sandbox({ seed: 2 });
    const report = sb.churn(40);
    const status = new Map(sb.snapshot().actionItems.map((a) => [a.id, a.status]));
    const deleted = new Set(report.actionItems.deleted);
    expect(report.actionItems.completed.length).toBeGreaterThan(0);
    expect(report.actionItems.reopened.length).toBeGreaterThan(0);
    for (const id of report.actionItems.completed) {
      if (!deleted.has(id) && !report.actionItems.reopened.includes(id)) expect(status.get(id)).toBe('DONE');
    }
    for (const id of report.actionItems.reopened) {
      if (!deleted.has(id) && !report.actionItems.completed.includes(id))
        expect(status.get(id)).toBe('PENDING');
    }
  });
});

describe('churn mixed with writes through the API', () => {
  it('keeps every promise, and snapshot() still equals the walks', async () => {
    const sb = await sandbox({ seed: 8, pageSize: 9 });
    for (let i = 0; i < 12; i++) {
      sb.churn(2);
      const head = sb.snapshot().meetings[0]!;
      const cal = await call(sb, `/calendar/events/${900 + i}/meeting`, {
        method: 'PUT',
        body: { privateNotes: `round ${i}` },
      });
      expect(cal.status).toBe(200);
      const created = cal.body as { id: string; createdAt: string };
      expect(Date.parse(created.createdAt)).toBeGreaterThan(Date.parse(head.createdAt));
      const share = await call(sb, `/meeting/${head.id}/share`, {
        method: 'PUT',
        body: [{ email: `guest${i}@share.example`, access: 'Viewer' }],
      });
      expect(share.status).toBe(200);
      expect(Date.parse((share.body as { updatedAt: string }).updatedAt)).toBeGreaterThan(
        Date.parse(head.updatedAt),
      );
      const item = await call(sb, '/action-items', { method: 'POST', body: { title: `API item ${i}` } });
      expect(item.status).toBe(201);
      sb.churn(1);
      assertValid(sb.snapshot());
    }
    const s = sb.snapshot();
    expect(await collect(sb, '/meetings')).toEqual(s.meetings);
    expect(await collect(sb, '/action-items?assigneeType=Anyone&status=ALL')).toEqual(s.actionItems);
  });
});

describe('snapshot()', () => {
  it('equals what complete walks of the HTTP API return', async () => {
    const sb = await sandbox({ seed: 9, pageSize: 7 });
    sb.churn(25);
    const s = sb.snapshot();
    expect(await collect(sb, '/meetings')).toEqual(s.meetings);
    expect(await collect(sb, '/action-items?assigneeType=Anyone&status=ALL')).toEqual(s.actionItems);
    expect(await collect(sb, '/action-items?status=ALL')).toEqual(s.myActionItems);
    expect(await collect(sb, '/people')).toEqual(s.people);
    expect(await collect(sb, '/companies')).toEqual(s.companies);
    for (const m of s.meetings) {
      const r = await call(sb, `/meeting/${encodeURIComponent(m.id)}/transcript`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(s.transcripts[m.id]);
    }
  });
});

describe('walks across churn', () => {
  it('terminate without errors while rounds run between pages', async () => {
    const sb = await sandbox({ seed: 4, pageSize: 5 });
    for (const path of [
      '/meetings',
      '/action-items?assigneeType=Anyone&status=ALL',
      '/people',
      '/companies',
    ]) {
      let next: string | undefined = path;
      let pages = 0;
      const seen: unknown[] = [];
      while (next !== undefined) {
        expect(pages++, `${path} pages`).toBeLessThan(200);
        const r = await call(sb, next);
        expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
        seen.push(...(r.body as unknown[]));
        sb.churn(3);
        next = nextPath(r.headers);
      }
      expect(seen.length).toBeGreaterThan(0);
    }
  });

  it('runs on a timer with --churn, and stops on close', async () => {
    const sb = await sandbox({ seed: 3, churn: '50/1s' });
    const first = JSON.stringify(sb.snapshot());
    const deadline = Date.now() + 5_000;
    while (JSON.stringify(sb.snapshot()) === first && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(JSON.stringify(sb.snapshot())).not.toBe(first);
  });
});

describe('parseChurn', () => {
  it('reads ROUNDS/DURATION and rejects the rest with one line', () => {
    expect(parseChurn('2/1s')).toEqual({ rounds: 2, windowMs: 1000 });
    expect(parseChurn(' 5 / 500ms ')).toEqual({ rounds: 5, windowMs: 500 });
    for (const bad of ['', '2', '0/1s', '2/0s', '1000/1s', 'x/1s', '2/1d']) {
      expect(() => parseChurn(bad)).toThrow(/invalid churn/);
    }
  });
});

describe('mtg sandbox --churn', () => {
  it('starts and its data changes over a short time', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--json', '--churn', '5/1s', '--limits', 'none'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (out.includes('\n')) resolve(out);
        });
        child.on('error', reject);
        setTimeout(() => reject(new Error(`no line in time: ${out}`)), 10_000);
      });
      const info = JSON.parse(line) as { baseUrl: string; apiKey: string };
      const fake = { ...info, plan: 'Pro' } as unknown as Sandbox;
      const first = JSON.stringify(await collect(fake, '/meetings'));
      let changed = false;
      for (let i = 0; i < 50 && !changed; i++) {
        await new Promise((r) => setTimeout(r, 100));
        changed = JSON.stringify(await collect(fake, '/meetings')) !== first;
      }
      expect(changed).toBe(true);
    } finally {
      const exited = new Promise((resolve) => child.on('close', resolve));
      child.kill('SIGINT');
      await exited;
    }
  });

  it('rejects a bad spec with exit 2 before serving', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const r = await runCli(['sandbox', '--churn', 'often']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid churn');
    expect(r.stdout).toBe('');
  });
});
