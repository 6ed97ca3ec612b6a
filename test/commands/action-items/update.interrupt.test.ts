// `mtg action-items update --stdin` cut short: Ctrl-C while an item waits out a 429 (the server
// applied nothing) reports it not sent, like the items never started; only an item cut off in
// flight may have been applied. --max-wait's unsent items are not failures: one summary line says
// how many and how to send them, not one line per item. In-process, on a virtual clock: the
// sandbox's windows count time on it, and no wait passes unless the test moves it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testIO } from '../../../src/cli/io.js';
import { run } from '../../../src/cli/main.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { waitUntil } from '../../hardening/helpers.js';
import { sandboxEnv, tempConfigDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { VirtualClock } from '../../helpers/virtual-clock.js';

let sandbox: Sandbox | undefined;
let server: Server | undefined;
let clock: VirtualClock;
beforeEach(() => {
  clock = new VirtualClock(Date.now(), { realIo: true });
});
afterEach(async () => {
  await sandbox?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  sandbox = undefined;
  server = undefined;
});

const UPDATE = ['action-items', 'update', '--stdin', '--status', 'PENDING', '--format', 'ndjson'];

/** mtg in this process with a Ctrl-C the test sends once `ready(stderr)` holds. */
async function interrupted(env: Record<string, string>, stdin: string, ready: (stderr: string) => boolean) {
  const io = testIO({ stdin });
  const ctrlC = new AbortController();
  const done = run(
    [...UPDATE, '--verbose'],
    io,
    { MTG_CONFIG_DIR: tempConfigDir(), ...env },
    {
      clock,
      interrupt: ctrlC.signal,
    },
  );
  await waitUntil(() => ready(io.stderr()), 10_000, 'the moment to interrupt');
  ctrlC.abort('SIGINT');
  const code = await done;
  const lines = io
    .stdout()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code, lines, stderr: io.stderr() };
}

describe('Ctrl-C during a batch', () => {
  it('reports an item waiting out a 429 as not sent (the server applied nothing), as those never started', async () => {
    sandbox = await startSandbox({ port: 0, plan: 'Free', limits: '20/60s', clock });
    const ids = sandbox
      .snapshot()
      .actionItems.filter((a) => a.status === 'DONE')
      .slice(0, 6)
      .map((a) => a.id);
    expect(ids).toHaveLength(6);
    // Another client of the account has used the minute up: the first update is answered 429.
    for (let i = 0; i < 20; i++)
      await fetch(`${sandbox.baseUrl}/people?limit=1`, {
        headers: { authorization: `Bearer ${sandbox.apiKey}` },
      });
    const r = await interrupted(
      sandboxEnv(sandbox, { MTG_CONCURRENCY: '1' }),
      `${ids.join('\n')}\n`,
      // -v: the 429 answered, then its wait begun (the clock stands still: the wait never ends).
      (stderr) => /429/.test(stderr) && /Rate limited: waiting/.test(stderr),
    );
    expect(r.code, r.stderr).toBe(130);
    expect(sandbox.count429).toBeGreaterThanOrEqual(1);
    expect(r.lines).toEqual(ids.map((id) => ({ id, outcome: 'not-sent', reason: 'interrupted' })));
    // And so it was: none changed.
    const after = new Map(sandbox.snapshot().actionItems.map((a) => [a.id, a.status]));
    for (const id of ids) expect(after.get(id)).toBe('DONE');
  });

  it('still says an item cut off in flight (sent, no answer yet) may have been applied', async () => {
    // A server that takes the update and never answers it.
    let received = 0;
    server = createServer((req) => {
      req.resume();
      req.on('end', () => {
        received++;
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const r = await interrupted(
      { MTG_BASE_URL: `http://127.0.0.1:${port}`, MTG_API_KEY: 'k', MTG_CONCURRENCY: '1' },
      '7\n8\n',
      () => received === 1,
    );
    expect(r.code).toBe(130);
    expect(r.lines).toEqual([
      {
        id: 7,
        outcome: 'failed',
        error: { message: 'interrupted after it was sent: it may have been applied' },
      },
      { id: 8, outcome: 'not-sent', reason: 'interrupted' },
    ]);
  });
});

describe('--max-wait cuts a batch short', () => {
  it('says once how many were not sent and how to send them, with no line per item and no "failed"', async () => {
    sandbox = await startSandbox({ port: 0, plan: 'Free', limits: '2/1s,5/60s', clock });
    const ids = sandbox
      .snapshot()
      .actionItems.slice(0, 30)
      .map((a) => a.id);
    const env = { ...sandboxEnv(sandbox), MTG_CONFIG_DIR: tempConfigDir() };
    const stdin = `${ids.join('\n')}\n`;
    const r = await clock.settle(runInProcess([...UPDATE, '--max-wait', '5'], { env, stdin, clock }));
    expect(r.code, r.stderr).toBe(5);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; outcome?: string });
    const rest = lines.filter((l) => l.outcome !== undefined);
    const applied = lines.length - rest.length;
    expect(applied).toBeGreaterThan(0);
    expect(rest.length).toBeGreaterThan(0);
    for (const l of rest) expect(l).toEqual({ id: l.id, outcome: 'not-sent', reason: 'max-wait' });
    const err = r.stderr.trim().split('\n');
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(
      new RegExp(
        `^Updated ${applied} of 30 action items; ${rest.length} not sent\\. Still rate-limited: .*--max-wait 5 s.*; to send them, feed the entries with "outcome":"not-sent" back to --stdin, or allow a longer --max-wait$`,
      ),
    );
    expect(r.stderr).not.toMatch(/failed/);

    // In tsv the line lists the IDs themselves (stdout holds only what applied).
    await sandbox.close();
    sandbox = await startSandbox({ port: 0, plan: 'Free', limits: '2/1s,5/60s', clock });
    const tsv = await clock.settle(
      runInProcess(
        ['action-items', 'update', '--stdin', '--status', 'PENDING', '--format', 'tsv', '--max-wait', '5'],
        {
          env: { ...sandboxEnv(sandbox), MTG_CONFIG_DIR: tempConfigDir() },
          stdin,
          clock,
        },
      ),
    );
    expect(tsv.code).toBe(5);
    const tsvErr = tsv.stderr.trim().split('\n');
    expect(tsvErr).toHaveLength(1);
    const appliedTsv = tsv.stdout.trim().split('\n').length - 1;
    const notSent = ids.slice(appliedTsv);
    expect(notSent.length).toBeGreaterThan(20);
    expect(tsvErr[0]).toContain(`; ${notSent.length} not sent. Still rate-limited`);
    expect(tsvErr[0]).toContain(
      `to send them, pass these IDs again (--stdin reads them): ${notSent.slice(0, 20).join(' ')} … (${notSent.length - 20} more: --format ndjson lists each); or allow a longer --max-wait`,
    );
  });
});
