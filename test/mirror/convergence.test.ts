// Convergence as a property over several seeds: sync, churn, sync, churn, … After each sync the
// mirror (read with plain SQL) equals what the sandbox holds exactly (every object's JSON, every
// transcript, every tombstone), and `mtg changes` reports exactly the differences, each once.
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ChangeEvent,
  type MirrorEnv,
  mirrorEnv,
  parseChanges,
  readMirror,
  snapshotContent,
} from './helpers.js';

const opened: MirrorEnv[] = [];
/** Every kind of event the churn made the syncs report, over all seeds. */
const kinds = new Set<string>();
afterAll(async () => {
  await Promise.all(opened.map((m) => m.sandbox.close()));
});

type Content = ReturnType<typeof snapshotContent>;
type Keyed = 'meetings' | 'actionItems' | 'people' | 'companies';
const RESOURCES: [Keyed, string][] = [
  ['meetings', 'meetings'],
  ['actionItems', 'action-items'],
  ['people', 'people'],
  ['companies', 'companies'],
];

/** The events a correct sync records going from `before` to `after`, in a comparable form. */
function expectedChanges(before: Content, after: Content): string[] {
  const out: string[] = [];
  for (const [key, resource] of RESOURCES) {
    const a = before[key];
    const b = after[key];
    for (const id of Object.keys(b)) {
      if (!(id in a)) out.push(`${resource} ${id} created []`);
      else if (a[id] !== b[id]) {
        const x = JSON.parse(a[id]!) as Record<string, unknown>;
        const y = JSON.parse(b[id]!) as Record<string, unknown>;
        const fields = [...new Set([...Object.keys(x), ...Object.keys(y)])]
          .filter((f) => JSON.stringify(x[f]) !== JSON.stringify(y[f]))
          .sort();
        if (fields.length === 0) continue;
        let change = 'updated';
        if (key === 'actionItems' && x.status === 'PENDING' && y.status === 'DONE') change = 'completed';
        if (key === 'actionItems' && x.status === 'DONE' && y.status === 'PENDING') change = 'reopened';
        out.push(`${resource} ${id} ${change} ${JSON.stringify(fields)}`);
      }
    }
    for (const id of Object.keys(a)) if (!(id in b)) out.push(`${resource} ${id} deleted []`);
  }
  for (const [id, t] of Object.entries(after.transcripts)) {
    if (!(id in before.transcripts)) out.push(`transcripts ${id} created []`);
    else if (before.transcripts[id] !== t) out.push(`transcripts ${id} updated []`);
  }
  return out.sort();
}

function reported(events: ChangeEvent[]): string[] {
  return events
    .map((e) => `${e.resource} ${e.id} ${e.change} ${JSON.stringify([...e.fields].sort())}`)
    .sort();
}

const EMPTY: Content = {
  meetings: {},
  actionItems: {},
  mine: [],
  people: {},
  companies: {},
  transcripts: {},
};

describe('the mirror converges on the sandbox', () => {
  it.each([1, 2, 3, 4, 5])(
    'seed %i: sync, churn, sync, … exact after every sync',
    async (seed) => {
      const m = await mirrorEnv({ seed });
      opened.push(m);
      let before = EMPTY;
      const everSeen: Record<Keyed, Set<string>> = {
        meetings: new Set(),
        actionItems: new Set(),
        people: new Set(),
        companies: new Set(),
      };
      for (let round = 0; round < 5; round++) {
        if (round > 0) m.sandbox.churn(1 + (round % 3));
        const r = await m.sync();
        expect(r.code, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout).complete).toBe(true);

        const server = snapshotContent(m.sandbox);
        const mirror = readMirror(m.dbPath);
        const { tombstones, ...live } = mirror;
        expect(live).toEqual(server);
        // The sandbox's own view of its state agrees with what it served.
        const snap = snapshotContent(m.sandbox);
        if (snap) expect(snap).toEqual(server);
        for (const [key] of RESOURCES) for (const id of Object.keys(server[key])) everSeen[key].add(id);
        const gone = (key: Keyed) => [...everSeen[key]].filter((id) => !(id in server[key])).sort();
        expect(tombstones).toEqual({
          meetings: gone('meetings'),
          actionItems: gone('actionItems'),
          people: gone('people'),
          companies: gone('companies'),
        });

        const events = parseChanges((await m.mtg(['changes', '--json'])).stdout);
        if (round > 0) for (const e of events) kinds.add(`${e.resource} ${e.change}`);
        expect(reported(events)).toEqual(expectedChanges(before, server));
        for (const e of events) {
          const key = RESOURCES.find(([, r]) => r === e.resource)?.[0];
          const now = key
            ? e.change === 'deleted'
              ? before[key][e.id]
              : server[key][e.id]
            : server.transcripts[e.id];
          expect(JSON.stringify(e.item)).toBe(now);
        }
        before = server;
      }
      // Every event of every sync, once: seq only grows and never repeats.
      const all = parseChanges((await m.mtg(['changes', '--after', '0', '--json'])).stdout);
      const seqs = all.map((e) => e.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    },
    120_000,
  );

  it('the churn exercised every kind of change the mirror must follow', () => {
    // A property run whose churn changed nothing would prove nothing.
    for (const kind of [
      'meetings created',
      'meetings updated',
      'meetings deleted',
      'action-items created',
      'action-items updated',
      'action-items completed',
      'action-items reopened',
      'action-items deleted',
      'transcripts created',
    ]) {
      expect(kinds).toContain(kind);
    }
    expect([...kinds].some((k) => /^(people|companies) (created|deleted)$/.test(k))).toBe(true);
  });
});
