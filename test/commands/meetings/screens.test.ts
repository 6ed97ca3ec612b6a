// The meetings commands as people read them (snapshots in __snapshots__/ beside this file): the list
// at 80 columns, the meeting page, the transcript, an error with its hint; and --since counted from
// the run's clock.
import { beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/inprocess.js';
import { useScreens } from '../../helpers/screens.js';

const screens = useScreens();
let meetingId: string;

beforeAll(async () => {
  const listed = await runInProcess(['meetings', 'list', '--limit', '1', '--format', 'json'], {
    env: screens.env,
  });
  expect(listed.code).toBe(0);
  meetingId = (JSON.parse(listed.stdout) as { id: string }[])[0]!.id;
});

describe('on a terminal (colors off)', () => {
  it('meetings list at 80 columns is a table that fits', async () => {
    const r = await screens.onTerminal(['meetings', 'list', '--limit', '10'], 80);
    expect(r.code).toBe(0);
    for (const line of r.stdout.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/meetings-list.tty80.txt');
  });

  it('meetings view ID is the meeting page', async () => {
    const r = await screens.onTerminal(['meetings', 'view', meetingId]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}Date {6}\d{4}-\d\d-\d\d \d\d:\d\d UTC \(\d+ days? ago\)$/m); // io.now
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/meetings-view.tty.txt');
  });

  it('meetings transcript ID is "[mm:ss] Speaker: text" lines', async () => {
    const r = await screens.onTerminal(['meetings', 'transcript', meetingId]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\[\d\d:\d\d\] [^:]+: /);
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/meetings-transcript.tty.txt');
  });

  it('meetings view --web without an app URL: the error and how to set one, nothing sent', async () => {
    const before = screens.sandbox.requests.length;
    const r = await screens.onTerminal(['meetings', 'view', meetingId, '--web']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(screens.sandbox.requests.length).toBe(before);
    await expect(r.stderr).toMatchFileSnapshot('__snapshots__/meetings-view-web.error.txt');
  });
});

describe('relative time bounds', () => {
  it('--since 7d counts back from the clock of the run (io.now), not the machine', async () => {
    const env = screens.env;
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
