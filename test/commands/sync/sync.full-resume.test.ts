// QA (a new user on the sandbox): `mtg sync --full --budget N` on a complete mirror, stopped among
// the transcripts, said "5 fetched, 0 pending … run `mtg sync` again to go on" while the --full
// pass still had the other transcripts to fetch again. The open --full pass is what the next plain
// `mtg sync` goes on with (issue 31: every run continues the open pass), and what it has left is
// what the summary and `mtg mirror status` call pending.
import { describe, expect, it } from 'vitest';
import { mirrorEnvs, transcriptRequests } from '../../mirror/helpers.js';

const env = mirrorEnvs();

describe('mtg sync --full stopped among the transcripts', () => {
  it('says how many transcripts its pass has left, and the next plain sync fetches exactly those', async () => {
    const m = await env({ seed: 41, sizes: { meetings: 30, actionItems: 10, people: 5, companies: 2 } });
    const first = JSON.parse((await m.sync()).stdout);
    expect(first.complete).toBe(true);
    const transcripts = first.transcripts.fetched;
    expect(transcripts).toBe(30);
    // The walks and the company details of the --full pass, then 5 transcripts.
    const budget = first.requests - transcripts + 5;
    const start = m.sandbox.requests.length;
    const full = await m.sync(['--full', '--budget', String(budget)]);
    expect(full.code, full.stderr).toBe(0);
    expect(JSON.parse(full.stdout)).toMatchObject({
      complete: false,
      transcripts: { fetched: 5, pending: transcripts - 5 },
    });
    expect(full.stderr).toContain(`transcripts 5 fetched, ${transcripts - 5} pending`);
    expect(full.stderr).toContain('run `mtg sync` again to go on');
    const status = JSON.parse((await m.mtg(['mirror', 'status', '--json'])).stdout);
    expect(status.transcriptsPending).toBe(transcripts - 5);

    const between = m.sandbox.requests.length;
    const next = JSON.parse((await m.sync()).stdout);
    expect(next).toMatchObject({ complete: true, transcripts: { fetched: transcripts - 5, pending: 0 } });
    // The --full pass fetched every transcript once: the 5 before the stop, the rest after.
    const fetchedByFull = transcriptRequests(m.sandbox, start);
    expect(fetchedByFull.size).toBe(transcripts);
    expect([...fetchedByFull.values()].every((n) => n === 1)).toBe(true);
    expect(transcriptRequests(m.sandbox, between).size).toBe(transcripts - 5);
    // The pass is done: the sync after it fetches no transcript of an unchanged meeting.
    expect(JSON.parse((await m.sync()).stdout).transcripts).toEqual({ fetched: 0, pending: 0 });
    expect(JSON.parse((await m.mtg(['mirror', 'status', '--json'])).stdout).transcriptsPending).toBe(0);
  }, 60_000);

  it('a plain budgeted sync after it goes on with the transcripts, walking no list again', async () => {
    const m = await env({ seed: 42, sizes: { meetings: 30, actionItems: 10, people: 5, companies: 2 } });
    const first = JSON.parse((await m.sync()).stdout);
    const budget = first.requests - first.transcripts.fetched + 5;
    expect(JSON.parse((await m.sync(['--full', '--budget', String(budget)])).stdout).complete).toBe(false);
    const between = m.sandbox.requests.length;
    const next = JSON.parse((await m.sync(['--budget', '10'])).stdout);
    expect(next).toMatchObject({ complete: false, transcripts: { fetched: 10, pending: 15 } });
    expect(m.sandbox.requests.slice(between).every((r) => r.path.startsWith('/meeting/'))).toBe(true);
  }, 60_000);

  it('stopped by --max-wait (exit 5), it says the same: what the pass has left is pending', async () => {
    // One window for the whole test: the first sync fits in it, the --full one runs out among the transcripts.
    const m = await env({
      seed: 41,
      sizes: { meetings: 30, actionItems: 10, people: 5, companies: 2 },
      limits: '70/600s',
    });
    const first = JSON.parse((await m.sync()).stdout);
    expect(first).toMatchObject({ complete: true, transcripts: { fetched: 30 } });
    const full = await m.sync(['--full', '--max-wait', '1']);
    expect(full.code).toBe(5);
    const stopped = JSON.parse(full.stdout);
    expect(stopped.complete).toBe(false);
    expect(stopped.transcripts.fetched).toBeGreaterThan(0);
    expect(stopped.transcripts.fetched).toBeLessThan(30);
    expect(stopped.transcripts.pending).toBe(30 - stopped.transcripts.fetched);
    const status = JSON.parse((await m.mtg(['mirror', 'status', '--json'])).stdout);
    expect(status.transcriptsPending).toBe(30 - stopped.transcripts.fetched);
  }, 60_000);
});
