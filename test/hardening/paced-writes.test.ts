// A batch under tight rate-limit windows (issue 20, item 1): every item waits its turn and is
// applied, in input order; a 429 is waited out and never spends --max-retries; --max-wait still
// ends a wait that is too long (exit 5). The sandbox's windows and mtg's waits run on a virtual
// clock (over real loopback HTTP): the minutes of pacing take milliseconds.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../helpers/cli.js';
import { type InProcessOptions, runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';
import { VirtualClock } from '../helpers/virtual-clock.js';
import { ndjsonIds } from './helpers.js';
import { actionItem, type OddServer, oddEnv, startOddServer } from './odd-server.js';

let configDir: string;
let sandbox: Sandbox | undefined;
let server: OddServer | undefined;
let clock: VirtualClock;
beforeEach(() => {
  configDir = tempDir('mtg-paced-');
  clock = new VirtualClock(Date.now(), { realIo: true });
});
afterEach(async () => {
  await sandbox?.close();
  await server?.close();
  sandbox = undefined;
  server = undefined;
});

const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** A sandbox whose windows count time on this test's clock. */
async function pacedSandbox(options: SandboxOptions): Promise<Sandbox> {
  sandbox = await startSandbox({ port: 0, ...options, clock });
  return sandbox;
}

/** mtg in this process, waiting on this test's clock, settled on it. */
function mtg(argv: string[], options: InProcessOptions) {
  return clock.settle(runInProcess(argv, { ...options, clock }));
}

describe('a batch under the Free plan shape of windows (3 a second and 20 a window)', () => {
  it('applies 40 updates in input order with exit 0 and next to no 429', async () => {
    sandbox = await pacedSandbox({ limits: '3/1s,20/10s' });
    const r = await mtg(['action-items', 'update', '--stdin', '--status', 'done', '--format', 'ndjson'], {
      env: { ...sandboxEnv(sandbox), MTG_CONFIG_DIR: configDir },
      stdin: `${ids(40).join('\n')}\n`,
    });
    expect(r.stderr).not.toContain('rate-limited');
    expect(r.code, r.stderr).toBe(0);
    expect(ndjsonIds(r.stdout)).toEqual(ids(40));
    // The limiter learns the second window from the headers; it may meet it once or twice.
    expect(sandbox.count429).toBeLessThanOrEqual(3);
  });
});

describe('every batch command is paced the same way', () => {
  it('tags apply: 6 batches of 100 meetings under "1/1s,3/5s", all applied, exit 0', async () => {
    sandbox = await pacedSandbox({ limits: '1/1s,3/5s', sizes: { meetings: 600 } });
    const meetingIds = sandbox.snapshot().meetings.map((m) => m.id);
    expect(meetingIds.length).toBe(600);
    const r = await mtg(['tags', 'apply', '2', '--stdin', '--format', 'ndjson', '--fields', 'id'], {
      env: { ...sandboxEnv(sandbox), MTG_CONFIG_DIR: configDir },
      stdin: `${meetingIds.join('\n')}\n`,
    });
    expect(r.stderr).not.toContain('rate-limited');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(600);
    expect(sandbox.count429).toBeLessThanOrEqual(3);
  });

  it('meetings share: 3 batches of 50 targets under "1/1s,2/5s", all applied, exit 0', async () => {
    sandbox = await pacedSandbox({ limits: '1/1s,2/5s' });
    const meetingId = sandbox.snapshot().meetings[0]!.id;
    const emails = Array.from({ length: 150 }, (_, i) => `guest${i}@example.com`);
    // Another client of the account has used the window up: the first batch meets a 429.
    for (let i = 0; i < 2; i++)
      await fetch(`${sandbox.baseUrl}/people?limit=1`, {
        headers: { authorization: `Bearer ${sandbox.apiKey}` },
      });
    const r = await mtg(
      [
        'meetings',
        'share',
        meetingId,
        '--stdin',
        '--access',
        'viewer',
        '--format',
        'json',
        '--max-retries',
        '0',
      ],
      {
        env: { ...sandboxEnv(sandbox), MTG_CONFIG_DIR: configDir },
        stdin: `${emails.join('\n')}\n`,
      },
    );
    expect(r.stderr).not.toContain('rate-limited');
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { errors: unknown[] }).errors).toEqual([]);
  });
});

describe('a 429 is waited out, not counted as a retry', () => {
  it('applies an update after a storm of 429s with --max-retries 1', async () => {
    server = await startOddServer((_req, n) =>
      n < 5
        ? { status: 429, headers: { 'retry-after': '0' }, body: '{"error":"slow down"}' }
        : { body: JSON.stringify(actionItem(7, { status: 'DONE' })) },
    );
    const r = await mtg(
      ['action-items', 'update', '7', '--status', 'done', '--format', 'ndjson', '--max-retries', '1'],
      { env: { ...oddEnv(server), MTG_CONFIG_DIR: configDir } },
    );
    expect(r.stderr).not.toContain('rate-limited');
    expect(r.code, r.stderr).toBe(0);
    expect(ndjsonIds(r.stdout)).toEqual([7]);
    expect(server.requests).toHaveLength(6);
  });

  it('still gives up with exit 5 when the wait would pass --max-wait', async () => {
    server = await startOddServer(() => ({
      status: 429,
      headers: { 'retry-after': '30' },
      body: '{"error":"slow down"}',
    }));
    const r = await mtg(
      ['action-items', 'update', '7', '--status', 'done', '--format', 'ndjson', '--max-wait', '1'],
      { env: { ...oddEnv(server), MTG_CONFIG_DIR: configDir } },
    );
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('{"id":7,"outcome":"not-sent","reason":"max-wait"}\n');
    expect(r.stderr).toContain('--max-wait');
    expect(server.requests).toHaveLength(1);
  });
});

describe('a batch that runs out of --max-wait part-way', () => {
  it('exits 5, not 6, says which items were not sent, and those fed back to --stdin are exactly the rest', async () => {
    // 20 in 10 s: the items past the 20th would wait about 10 s, beyond --max-wait 2.
    sandbox = await pacedSandbox({ limits: '3/1s,20/10s' });
    const args = ['action-items', 'update', '--stdin', '--status', 'done', '--format', 'ndjson'];
    const env = { ...sandboxEnv(sandbox), MTG_CONFIG_DIR: configDir };
    const r = await mtg([...args, '--max-wait', '2'], { env, stdin: `${ids(26).join('\n')}\n` });
    expect(r.code).toBe(5);
    // One line per item, in input order: the applied ones as the server sent them, the others
    // as their outcome.
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; status?: string; outcome?: string; reason?: string });
    expect(lines.map((l) => l.id)).toEqual(ids(26));
    const applied = lines.filter((l) => l.outcome === undefined);
    const rest = lines.filter((l) => l.outcome !== undefined);
    expect(applied.length).toBeGreaterThan(0);
    expect(rest.length).toBeGreaterThan(0);
    for (const l of applied) expect(l.status).toBe('DONE');
    for (const l of rest) expect(l).toEqual({ id: l.id, outcome: 'not-sent', reason: 'max-wait' });
    // Not sent is not failed: one summary line, no line per item.
    expect(r.stderr.split('\n').filter((l) => /^action item \d+: /.test(l))).toEqual([]);
    expect(r.stderr).toMatch(new RegExp(`; ${rest.length} not sent\\. Still rate-limited.*--max-wait 2 s`));

    // The documented way (docs/scripting.md): the lines with an outcome, back to --stdin.
    const before = sandbox.requests.length;
    const again = await mtg(args, {
      env,
      stdin: rest.map((l) => `${JSON.stringify(l)}\n`).join(''),
    });
    expect(again.code, again.stderr).toBe(0);
    expect(ndjsonIds(again.stdout)).toEqual(rest.map((l) => l.id));
    // Exactly the rest was sent: no applied item twice.
    const sent = sandbox.requests.slice(before).filter((q) => q.method === 'PUT' && q.status === 200);
    expect(sent.map((q) => q.path).sort()).toEqual(rest.map((l) => `/action-item/${l.id}`).sort());
  });
  it('meetings share: a later batch held back past --max-wait exits 5, its targets reported', async () => {
    // One request per 5 s: the first batch goes at once, the second would wait about 5 s.
    sandbox = await pacedSandbox({ limits: '1/5s' });
    const meetingId = sandbox.snapshot().meetings[0]!.id;
    const emails = Array.from({ length: 60 }, (_, i) => `late${i}@example.com`);
    const r = await mtg(
      [
        'meetings',
        'share',
        meetingId,
        '--stdin',
        '--access',
        'viewer',
        '--format',
        'json',
        '--max-wait',
        '1',
      ],
      { env: { ...sandboxEnv(sandbox), MTG_CONFIG_DIR: configDir }, stdin: `${emails.join('\n')}\n` },
    );
    const { errors } = JSON.parse(r.stdout) as { errors: { index: number; error: string }[] };
    expect(errors.map((e) => e.index)).toEqual(Array.from({ length: 10 }, (_, i) => 50 + i));
    expect(errors[0]!.error).toMatch(/Still rate-limited.*--max-wait 1 s/);
    expect(r.code).toBe(5);
  });
});
