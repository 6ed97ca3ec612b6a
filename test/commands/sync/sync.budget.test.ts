// A CI job that syncs with `--budget N` run after run (the Free plan's pace, a job's time limit):
// each run goes on where the last one stopped, and a list that an unfinished pass already walked
// to its end is not walked again until the pass completes. Before, every run walked such a list
// from page 1 again, so runs whose budget a list used up whole never reached the lists after it.
import { afterAll, describe, expect, it } from 'vitest';
import { type MirrorEnv, mirrorEnv, readMirror, snapshotContent } from '../../mirror/helpers.js';

const opened: MirrorEnv[] = [];
afterAll(async () => {
  await Promise.all(opened.map((m) => m.sandbox.close()));
});

/** Requests the sandbox answered for each list (GET /meetings, /action-items, …), as "path" strings. */
const listGets = (m: MirrorEnv, from: number) =>
  m.sandbox.requests
    .slice(from)
    .filter((r) => r.method === 'GET')
    .map((r) => r.path);

describe('mtg sync --budget, run after run', () => {
  it('converges: each page of each list fetched once per pass, the mirror then equal to the server, and the next pass walks every list again', async () => {
    // 20 meetings in pages of 5: the meetings list takes exactly two runs of budget 2.
    const m = await mirrorEnv({
      seed: 31,
      sizes: { meetings: 20, actionItems: 30, people: 14, companies: 5 },
    });
    opened.push(m);
    // What one complete pass fetches, measured on a second mirror of the same server.
    const whole = await mirrorEnv({
      seed: 31,
      sizes: { meetings: 20, actionItems: 30, people: 14, companies: 5 },
    });
    opened.push(whole);
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
    expect(runs).toBe(Math.ceil(pass.length / 2));
    // Runs 1 and 2 walk the meetings; the third says why it does not.
    expect(notes[1]).not.toMatch(/Going on/);
    expect(notes[2]).toContain(
      'Going on with the sync an earlier one began: it walked meetings to the end, so this one does not again (--full walks every list).',
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

  it('--full starts a new pass: lists the unfinished pass walked are walked again', async () => {
    const m = await mirrorEnv({ seed: 32 });
    opened.push(m);
    const first = await m.sync(['--no-transcripts', '--budget', '3']);
    expect(JSON.parse(first.stdout).complete).toBe(false);
    const before = m.sandbox.requests.length;
    const full = await m.sync(['--no-transcripts', '--full']);
    expect(JSON.parse(full.stdout).complete).toBe(true);
    expect(listGets(m, before).filter((p) => p === '/meetings')).toHaveLength(3);
  }, 60_000);
});
