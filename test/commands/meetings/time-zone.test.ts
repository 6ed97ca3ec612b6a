// Dates in the machine's time zone: `meetings list --since/--until` of a bare date and the date on
// the meeting page. run(argv, io, env) takes the zone from the process (env carries no TZ), so each
// run here sets process.env.TZ (node applies a change at once) and puts it back; the tests of this
// file run one after another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Meeting } from '../../../src/api/schemas.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { fetchAll, runRecordedInProcess } from '../../helpers/recorded.js';

const PAGE_SIZE = 10;
let sandbox: Sandbox;
/** Every meeting, newest first, as GET /meetings pages them. */
let meetings: Meeting[];

beforeAll(async () => {
  // About a year of meetings (they are 2 to 40 hours apart), in pages of 10.
  sandbox = await startSandbox({
    port: 0,
    pageSize: PAGE_SIZE,
    limits: 'none',
    sizes: { meetings: 420, actionItems: 200 },
  });
  meetings = (await fetchAll(sandbox, '/meetings')) as Meeting[];
});
afterAll(() => sandbox?.close());

const time = (iso: string) => Date.parse(iso);

/** mtg in-process with the process's time zone set to `zone` for the run. */
async function inZone(zone: string, args: string[]) {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return await runRecordedInProcess(sandbox, args);
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

describe('the local time zone (TZ)', () => {
  it('a bare date is a whole local day, in the time zone of the machine', async () => {
    // Asia/Kolkata is UTC+05:30 all year: the local day D runs from D-1T18:30Z to DT18:30Z.
    const some = meetings[40]!;
    const local = new Date(time(some.createdAt) + 330 * 60_000).toISOString().slice(0, 10);
    const start = Date.parse(`${local}T00:00:00+05:30`);
    const end = start + 86_400_000;
    const r = await inZone('Asia/Kolkata', [
      'meetings',
      'list',
      '--since',
      local,
      '--until',
      local,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const expected = meetings.filter((m) => time(m.createdAt) >= start && time(m.createdAt) < end);
    expect(expected.map((m) => m.id)).toContain(some.id);
    expect((JSON.parse(r.stdout) as Meeting[]).map((m) => m.id)).toEqual(expected.map((m) => m.id));
  });

  it('shows the date in the local zone: plain "UTC" for UTC, the offset otherwise', async () => {
    const utc = await inZone('UTC', ['meetings', 'view', meetings[0]!.id, '--format', 'table']);
    expect(utc.stdout).toMatch(/^ {2}Date\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC( \(|$)/m);
    const kolkata = await inZone('Asia/Kolkata', ['meetings', 'view', meetings[0]!.id, '--format', 'table']);
    expect(kolkata.stdout).toMatch(/^ {2}Date\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\+05:30( \(|$)/m);
  });
});
