// A CI job that syncs with `--budget N` run after run (the Free plan's pace, a job's time limit):
// each run goes on with the pass the runs before it began (stored: passes, pass_lists), where the
// last one stopped, and a list the pass has walked to its end is not walked again. Before, every run
// walked such a list from page 1 again, so runs whose budget a list used up whole never reached the
// lists after it. A sync without --budget walks every list it is asked for; --full opens a new pass.
import { describe, expect, it } from 'vitest';
import { openDb } from '../../../src/mirror/driver.js';
import { type MirrorEnv, mirrorEnvs, readMirror, snapshotContent } from '../../mirror/helpers.js';

/** mirrorEnv(), each stopped after this file's tests. */
const env = mirrorEnvs();

/** Requests the sandbox answered for each list (GET /meetings, /action-items, …), as "path" strings. */
const listGets = (m: MirrorEnv, from: number) =>
  m.sandbox.requests
    .slice(from)
    .filter((r) => r.method === 'GET' && !r.path.startsWith('/company/'))
    .map((r) => r.path);

/** Company details (GET /company/{domain}) the sandbox answered since request `from`. */
const detailGets = (m: MirrorEnv, from: number) =>
  m.sandbox.requests.slice(from).filter((r) => r.method === 'GET' && r.path.startsWith('/company/')).length;

/** First pages (no cursor) of the everyone walk of action items since request `from`. */
const everyoneWalkStarts = (m: MirrorEnv, from: number) =>
  m.sandbox.requests
    .slice(from)
    .filter(
      (r) => r.path === '/action-items' && r.query.get('assigneeType') === 'Anyone' && !r.query.has('cursor'),
    ).length;

/** A budgeted run that walks the meetings and the everyone walk of action items, not the rest. */
async function stoppedAfterTwoLists(m: MirrorEnv): Promise<void> {
  const r = await m.sync(['--no-transcripts', '--budget', '9']);
  expect(JSON.parse(r.stdout).complete).toBe(false);
  expect(everyoneWalkStarts(m, 0)).toBe(1);
}

describe('mtg sync --budget, run after run', () => {
  it('converges: each page of each list fetched once per pass, the mirror then equal to the server, and the next pass walks every list again', async () => {
    // 20 meetings in pages of 5: the meetings list takes exactly two runs of budget 2.
    const m = await env({
      seed: 31,
      sizes: { meetings: 20, actionItems: 30, people: 14, companies: 5 },
    });
    // What one complete pass fetches, measured on a second mirror of the same server.
    const whole = await env({
      seed: 31,
      sizes: { meetings: 20, actionItems: 30, people: 14, companies: 5 },
    });
    const one = await whole.sync(['--no-transcripts']);
    expect(JSON.parse(one.stdout).complete).toBe(true);
    const pass = listGets(whole, 0);
    expect(pass.filter((p) => p === '/meetings')).toHaveLength(4);

    const start = m.sandbox.requests.length;
    let runs = 0;
    let complete = false;
    const notes: string[] = [];
    while (!complete && runs < 40) {
      const r = await m.sync(['--no-transcripts', '--budget', '2']);
      expect(r.code, r.stderr).toBe(0);
      complete = JSON.parse(r.stdout).complete;
      notes.push(r.stderr);
      runs++;
    }
    expect(complete).toBe(true);
    // Every page once: the pass cost what one unbudgeted sync costs, in as few runs as the budget allows.
    expect(listGets(m, start).sort()).toEqual([...pass].sort());
    // And each company's detail once (a budget stopping among them does not fetch one again).
    expect(detailGets(m, start)).toBe(5);
    expect(runs).toBe(Math.ceil((pass.length + 5) / 2));
    // Runs 1 and 2 walk the meetings; the third says why it does not.
    expect(notes[1]).not.toMatch(/Going on/);
    expect(notes[2]).toContain(
      'Going on with the pass the syncs before this one began: they walked meetings to the end, so this one does not again (a sync without --budget walks every list).',
    );
    const { tombstones, ...live } = readMirror(m.dbPath);
    const { transcripts: _t, ...server } = snapshotContent(m.sandbox);
    const { transcripts: _m, ...mirrored } = live;
    expect(mirrored).toEqual(server);

    // The pass is over: the next run starts another and walks the meetings from page 1.
    const before = m.sandbox.requests.length;
    const next = await m.sync(['--no-transcripts']);
    expect(JSON.parse(next.stdout).complete).toBe(true);
    expect(listGets(m, before).sort()).toEqual([...pass].sort());
  }, 120_000);

  it('a sync without --budget (plain, or --only) after budgeted runs walks every list it is asked for, and sees a change made meanwhile', async () => {
    const m = await env({ seed: 32 });
    await stoppedAfterTwoLists(m);
    const item = m.sandbox.snapshot().actionItems[0]!;
    const changed = await m.mtg([
      'action-items',
      'update',
      String(item.id),
      '--title',
      'Changed on the server',
    ]);
    expect(changed.code, changed.stderr).toBe(0);
    const title = () => sqlTitle(m.dbPath, String(item.id));
    expect(title()).not.toBe('Changed on the server');
    let before = m.sandbox.requests.length;
    const only = await m.sync(['--no-transcripts', '--only', 'action-items']);
    expect(JSON.parse(only.stdout).complete).toBe(true);
    expect(only.stderr).not.toMatch(/Going on/);
    expect(everyoneWalkStarts(m, before)).toBe(1);
    expect(title()).toBe('Changed on the server');
    before = m.sandbox.requests.length;
    const plain = await m.sync(['--no-transcripts']);
    expect(JSON.parse(plain.stdout).complete).toBe(true);
    expect(listGets(m, before).filter((p) => p === '/meetings').length).toBeGreaterThan(0);
    expect(everyoneWalkStarts(m, before)).toBe(1);
  }, 60_000);

  it.each([
    ['ended in an error', "error = 'failed'"],
    ['was killed', 'finished_at = NULL'],
  ])(
    'after a run that %s, a budgeted run goes on with the pass: the lists it completed are not walked again',
    async (_how, what) => {
      const m = await env({ seed: 33 });
      await stoppedAfterTwoLists(m);
      // The last run as a failed one leaves it (an API error, Ctrl-C, --max-wait), or a killed one.
      const db = openDb(m.dbPath);
      try {
        db.prepare(`UPDATE runs SET ${what} WHERE id = (SELECT max(id) FROM runs)`).run();
      } finally {
        db.close();
      }
      const before = m.sandbox.requests.length;
      const r = await m.sync(['--no-transcripts', '--budget', '100']);
      expect(JSON.parse(r.stdout).complete).toBe(true);
      expect(r.stderr).toContain('they walked meetings, action items to the end');
      expect(listGets(m, before).filter((p) => p === '/meetings')).toHaveLength(0);
      expect(everyoneWalkStarts(m, before)).toBe(0);
    },
    60_000,
  );

  it('--full starts the chain anew: after a --full run stopped at its budget, the next budgeted run walks the lists --full did not reach', async () => {
    const m = await env({ seed: 34 });
    await stoppedAfterTwoLists(m);
    const full = await m.sync(['--no-transcripts', '--full', '--budget', '3']);
    expect(JSON.parse(full.stdout).complete).toBe(false);
    const before = m.sandbox.requests.length;
    const next = await m.sync(['--no-transcripts', '--budget', '100']);
    expect(JSON.parse(next.stdout).complete).toBe(true);
    // The meetings, walked by the --full run, are not walked again; the action items are.
    expect(listGets(m, before).filter((p) => p === '/meetings')).toHaveLength(0);
    expect(next.stderr).toContain('they walked meetings to the end');
    expect(everyoneWalkStarts(m, before)).toBe(1);
  }, 60_000);

  it('a --full sync stopped at its budget goes on in the next sync, with or without --budget: every transcript fetched again', async () => {
    const m = await env({ seed: 35 });
    const first = JSON.parse((await m.sync()).stdout);
    expect(first.complete).toBe(true);
    const transcripts = first.transcripts.fetched;
    expect(transcripts).toBeGreaterThan(0);
    const full = JSON.parse((await m.sync(['--full', '--budget', '3'])).stdout);
    expect(full).toMatchObject({ complete: false, transcripts: { fetched: 0 } });
    const next = JSON.parse((await m.sync()).stdout);
    expect(next.complete).toBe(true);
    expect(next.transcripts.fetched).toBe(transcripts);
    // The --full job is done: the sync after it fetches no transcript of an unchanged meeting.
    expect(JSON.parse((await m.sync()).stdout).transcripts.fetched).toBe(0);
  }, 60_000);

  it('a walk an earlier sync left open is walked from page 1 by the budgeted syncs that go on with a --full one', async () => {
    const m = await env({ seed: 36 });
    const whole = await env({ seed: 36 });
    await whole.sync(['--no-transcripts']);
    const order = listGets(whole, 0);
    // Stopped after the first page of people: their walk is open, with a cursor saved.
    const stopped = await m.sync(['--no-transcripts', '--budget', String(order.indexOf('/people') + 1)]);
    expect(JSON.parse(stopped.stdout).complete).toBe(false);
    const full = await m.sync(['--no-transcripts', '--full', '--budget', '3']);
    expect(JSON.parse(full.stdout).complete).toBe(false);
    const before = m.sandbox.requests.length;
    const next = await m.sync(['--no-transcripts', '--budget', '100']);
    expect(JSON.parse(next.stdout).complete).toBe(true);
    const people = m.sandbox.requests.slice(before).filter((r) => r.path === '/people');
    expect(people.length).toBeGreaterThan(1);
    expect(people[0]!.query.has('cursor')).toBe(false);
  }, 60_000);

  it('meetings deleted on the server while a chain runs: their transcripts answer 404, the next budgeted run walks the meetings again, and the chain completes', async () => {
    const m = await env({ seed: 37, sizes: { meetings: 30, actionItems: 10, people: 5, companies: 2 } });
    expect(JSON.parse((await m.sync(['--no-transcripts', '--budget', '9'])).stdout).complete).toBe(false);
    let deleted = 0;
    for (let i = 0; i < 30 && deleted < 5; i++) deleted += m.sandbox.churn(1).meetings.deleted.length;
    expect(deleted).toBeGreaterThanOrEqual(5);
    let complete = false;
    for (let runs = 0; runs < 60 && !complete; runs++) {
      const r = await m.sync(['--budget', '3']);
      expect(r.code, r.stderr).toBe(0);
      complete = JSON.parse(r.stdout).complete;
    }
    expect(complete).toBe(true);
    // The mirror holds the server's meetings, and the deleted ones it had seen as tombstones.
    const { tombstones, meetings } = readMirror(m.dbPath);
    expect(Object.keys(meetings).sort()).toEqual(Object.keys(snapshotContent(m.sandbox).meetings).sort());
    expect(tombstones.meetings.length).toBeGreaterThan(0);
  }, 120_000);

  it('a --full run for some lists only goes on for those: the syncs after a --full --only people fetch no transcript again', async () => {
    const m = await env({ seed: 38 });
    expect(JSON.parse((await m.sync()).stdout).complete).toBe(true);
    const full = JSON.parse((await m.sync(['--full', '--only', 'people', '--budget', '1'])).stdout);
    expect(full.complete).toBe(false);
    const next = JSON.parse((await m.sync(['--budget', '1000'])).stdout);
    expect(next.complete).toBe(true);
    expect(next.transcripts.fetched).toBe(0);
  }, 60_000);
});

function sqlTitle(dbPath: string, id: string): string {
  const db = openDb(dbPath, { readonly: true });
  try {
    return (
      db.prepare("SELECT json ->> '$.title' AS t FROM action_items WHERE id = ?").get(id) as { t: string }
    ).t;
  } finally {
    db.close();
  }
}
