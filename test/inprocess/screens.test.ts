// What people read, run in-process (run(argv, io, env) with testIO) against a sandbox of a fixed
// seed, with the clock fixed through io.now and the time zone pinned: a change to a table, the
// meeting page, a transcript or a help text shows up as a diff of the snapshot files beside this one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/inprocess.js';

// Dates without a relative form are printed in local time: pin it before any is formatted.
process.env.TZ = 'UTC';

const NOW = new Date('2025-06-04T12:00:00Z'); // days after the sandbox's records: relative dates
let sandbox: Sandbox;
let env: Record<string, string>;
let meetingId: string;

const onTerminal = (argv: string[]) => runInProcess(argv, { env, tty: true, columns: 100, now: NOW });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none', seed: 7 });
  env = { MTG_BASE_URL: sandbox.baseUrl, MTG_API_KEY: sandbox.apiKey, NO_COLOR: '1' };
  const listed = await runInProcess(['meetings', 'list', '--limit', '1', '--format', 'json'], { env });
  expect(listed.code).toBe(0);
  meetingId = (JSON.parse(listed.stdout) as { id: string }[])[0]!.id;
});

afterAll(async () => {
  await sandbox?.close();
});

describe('on a terminal (100 columns, colors off)', () => {
  it('action-items list is a table that fits, dates relative to now', async () => {
    const r = await onTerminal(['action-items', 'list', '--limit', '12']);
    expect(r.code).toBe(0);
    for (const line of r.stdout.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/action-items-list.tty.txt');
  });

  it('meetings view ID is the meeting page', async () => {
    const r = await onTerminal(['meetings', 'view', meetingId]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}Date {6}\d{4}-\d\d-\d\d \d\d:\d\d UTC \(\d+ days? ago\)$/m); // io.now
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/meetings-view.tty.txt');
  });

  it('meetings transcript ID is "[mm:ss] Speaker: text" lines', async () => {
    const r = await onTerminal(['meetings', 'transcript', meetingId]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\[\d\d:\d\d\] [^:]+: /);
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/meetings-transcript.tty.txt');
  });

  it('--help of one command', async () => {
    const r = await onTerminal(['action-items', 'list', '--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/action-items-list.help.txt');
  });
});

describe('errors and pipes', () => {
  it('a usage error is one line on stderr and exit 2, before any request', async () => {
    const before = sandbox.requests.length;
    const r = await runInProcess(['action-items', 'list', '--status', 'SOMETIMES'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^mtg: .*SOMETIMES/);
    expect(sandbox.requests.length).toBe(before);
  });

  it('piped (no terminal), a list is tsv with a header, server text exact', async () => {
    const r = await runInProcess(['action-items', 'list', '--limit', '3'], {
      env: { ...env, NO_COLOR: undefined },
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line.split('\t').length).toBe(lines[0]!.split('\t').length);
    expect(lines[0]).toMatch(/^id\t/);
    // The sandbox's hostile item: a pipe is data, so its escape codes reach it as the server sent them.
    expect(r.stdout).toContain('\u001b[31mRED ALERT\u001b[0m');
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/action-items-list.pipe.tsv');
  });

  it('FORCE_COLOR colors the table; --no-color wins over it', async () => {
    const colored = await runInProcess(['action-items', 'list', '--limit', '2'], {
      env: { ...env, NO_COLOR: undefined, FORCE_COLOR: '1' },
      tty: true,
      now: NOW,
    });
    expect(colored.stdout).toContain('\u001b[');
    const plain = await runInProcess(['action-items', 'list', '--limit', '2', '--no-color'], {
      env: { ...env, NO_COLOR: undefined, FORCE_COLOR: '1' },
      tty: true,
      now: NOW,
    });
    expect(plain.stdout).not.toContain('\u001b');
  });
});

describe('relative time bounds', () => {
  it('--since 7d counts back from the clock of the run (io.now), not the machine', async () => {
    const all = await runInProcess(['meetings', 'list', '--format', 'json'], { env });
    const createdAt = (JSON.parse(all.stdout) as { createdAt: string }[]).map((m) => Date.parse(m.createdAt));
    const newest = Math.max(...createdAt);
    // A clock one day after the newest meeting: the last week of the sandbox's records.
    const now = new Date(newest + 86_400_000);
    const expected = createdAt.filter((t) => t >= now.getTime() - 7 * 86_400_000).length;
    expect(expected).toBeGreaterThan(0);
    const week = await runInProcess(['meetings', 'list', '--since', '7d', '--format', 'json'], { env, now });
    expect(week.code, week.stderr).toBe(0);
    expect(JSON.parse(week.stdout)).toHaveLength(expected);
  });
});
