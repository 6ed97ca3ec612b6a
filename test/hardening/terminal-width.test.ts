// How wide a table is, and which columns give way, as people run mtg: COLUMNS when set (a valid
// positive number), else the terminal's own size, else 80; an unsized pseudo-terminal (`script`,
// CI runners) and `--format table` into a pipe included. At 60, 80 and 120 columns the lists of
// meetings, action items and people fit, keep every ID whole, and cut long free text before
// emails, dates or statuses. Run in-process against a sandbox of a fixed seed.
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

const NOW = new Date('2025-06-04T12:00:00Z');
let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none', seed: 7 });
  env = sandboxEnv(sandbox, { NO_COLOR: '1' });
});

afterAll(async () => {
  await sandbox?.close();
});

const widest = (text: string) =>
  Math.max(
    ...text
      .trimEnd()
      .split('\n')
      .map((l) => stringWidth(l)),
  );
const MEETINGS = ['meetings', 'list', '--limit', '8'];

describe('the width of a table', () => {
  it('an unsized terminal (0 columns) takes COLUMNS', async () => {
    const r = await runInProcess(MEETINGS, {
      env: { ...env, COLUMNS: '60' },
      tty: true,
      columns: 0,
      now: NOW,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^id\s+name/);
    expect(widest(r.stdout)).toBeLessThanOrEqual(60);
  });

  it('an unsized terminal without COLUMNS is 80 columns', async () => {
    const r = await runInProcess(MEETINGS, { env, tty: true, columns: 0, now: NOW });
    expect(r.code).toBe(0);
    expect(widest(r.stdout)).toBeLessThanOrEqual(80);
    expect(widest(r.stdout)).toBeGreaterThan(70); // these meetings need more than 80: all of it is used
  });

  it('--format table into a pipe takes COLUMNS, else 80', async () => {
    const narrow = await runInProcess([...MEETINGS, '--format', 'table'], {
      env: { ...env, COLUMNS: '66' },
      now: NOW,
    });
    expect(narrow.code).toBe(0);
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(66);
    const plain = await runInProcess([...MEETINGS, '--format', 'table'], { env, now: NOW });
    expect(widest(plain.stdout)).toBeLessThanOrEqual(80);
  });

  it('COLUMNS wins over the terminal; a COLUMNS that is no positive number is ignored', async () => {
    const set = await runInProcess(MEETINGS, {
      env: { ...env, COLUMNS: '60' },
      tty: true,
      columns: 150,
      now: NOW,
    });
    expect(widest(set.stdout)).toBeLessThanOrEqual(60);
    for (const bad of ['', 'wide', '0', '-5', '80x']) {
      const r = await runInProcess(MEETINGS, {
        env: { ...env, COLUMNS: bad },
        tty: true,
        columns: 150,
        now: NOW,
      });
      expect(r.code).toBe(0);
      expect(widest(r.stdout), `COLUMNS=${JSON.stringify(bad)}`).toBeGreaterThan(80);
    }
  });
});

/** The table's cells by its header (columns start where the header's names start). */
function cells(table: string): Record<string, string>[] {
  const [header = '', ...rows] = table.trimEnd().split('\n');
  const starts = [...header.matchAll(/\S+/g)].map((m) => ({ name: m[0], at: m.index ?? 0 }));
  return rows.map((row) => {
    const record: Record<string, string> = {};
    starts.forEach(({ name, at }, i) => {
      const end = starts[i + 1]?.at ?? row.length;
      record[name] = row.slice(at, end).trim();
    });
    return record;
  });
}

const onTerminal = (argv: string[], columns: number) =>
  runInProcess(argv, { env, tty: true, columns, now: NOW });
const json = async <T>(argv: string[]): Promise<T[]> =>
  JSON.parse((await runInProcess([...argv, '--json'], { env })).stdout) as T[];

describe('columns give way in the order a person would', () => {
  for (const width of [60, 80, 120]) {
    it(`people list at ${width}: IDs whole, emails whole, names and titles cut first`, async () => {
      const argv = ['people', 'list', '--limit', '6'];
      const people = await json<{ id: number; email: string | null }>(argv);
      const r = await onTerminal(argv, width);
      expect(r.code).toBe(0);
      expect(widest(r.stdout)).toBeLessThanOrEqual(width);
      const rows = cells(r.stdout);
      expect(rows.map((row) => row.id)).toEqual(people.map((p) => String(p.id)));
      for (const [i, p] of people.entries()) {
        const row = rows[i]!;
        if (row.email === (p.email ?? '')) continue;
        // An email is cut only once every name and title is down to a few columns.
        for (const text of [row.firstName, row.lastName, row.companyName, row.title])
          expect(stringWidth(text ?? '')).toBeLessThanOrEqual(4);
      }
      if (width >= 80) for (const [i, p] of people.entries()) expect(rows[i]!.email).toBe(p.email ?? '');
    });

    it(`action-items list at ${width}: IDs and statuses whole, the title gives way first`, async () => {
      const argv = ['action-items', 'list', '--assignee', 'anyone', '--limit', '6'];
      const items = await json<{ id: number; status: string; meetingIds: string[] }>(argv);
      const r = await onTerminal(argv, width);
      expect(r.code).toBe(0);
      expect(widest(r.stdout)).toBeLessThanOrEqual(width);
      const rows = cells(r.stdout);
      for (const [i, item] of items.entries()) {
        expect(rows[i]!.id).toBe(String(item.id));
        expect(rows[i]!.status).toBe(item.status);
        // The meeting IDs are cut only once the title is down to a few columns.
        if (rows[i]!.meetingIds !== item.meetingIds.join(', '))
          expect(stringWidth(rows[i]!.title!)).toBeLessThanOrEqual(4);
      }
    });

    it(`meetings list at ${width}: IDs, dates and durations whole; the name keeps a fair share`, async () => {
      const argv = ['meetings', 'list', '--limit', '8'];
      const meetings = await json<{ id: string }>(argv);
      const r = await onTerminal(argv, width);
      expect(r.code).toBe(0);
      expect(widest(r.stdout)).toBeLessThanOrEqual(width);
      const rows = cells(r.stdout);
      expect(rows.map((row) => row.id)).toEqual(meetings.map((m) => m.id));
      for (const row of rows) {
        expect(row.createdAt).not.toContain('…');
        expect(row.duration).not.toContain('…');
        // A name is never cut shorter than a tag list that is cut (or than one kept whole beside it).
        if (row.name!.endsWith('…'))
          expect(stringWidth(row.name!)).toBeGreaterThanOrEqual(Math.min(stringWidth(row.tags ?? ''), 12));
      }
    });
  }
});
