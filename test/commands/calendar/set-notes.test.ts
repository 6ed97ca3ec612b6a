// `mtg calendar set-notes` in-process against the sandbox.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { runRecordedInProcess } from '../../helpers/recorded.js';
import { tempDir } from '../../helpers/temp.js';

let sandbox: Sandbox;
const dir = tempDir('mtg-calendar-test-');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none' });
});

afterAll(async () => {
  await sandbox?.close();
});

const run = (args: string[], input?: string) => runRecordedInProcess(sandbox, args, { input });

describe('calendar set-notes', () => {
  it('sends the notes and prints the meeting', async () => {
    const r = await run(['calendar', 'set-notes', '8812', '--notes', 'Ask about the **budget**', '--json']);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['PUT', '/calendar/events/8812/meeting', { privateNotes: 'Ask about the **budget**' }],
    ]);
    const meeting = JSON.parse(r.stdout);
    expect(meeting).toMatchObject({ privateNotes: 'Ask about the **budget**', calendarEvent: { id: 8812 } });
  });

  it('reads the notes from a file, and from stdin with -', async () => {
    const file = join(dir, 'notes.md');
    writeFileSync(file, '# Agenda\n\n- pricing\n');
    const r = await run(['calendar', 'set-notes', '8813', '--notes-file', file, '--json']);
    expect(r.code).toBe(0);
    expect(r.requests[0]!.body).toEqual({ privateNotes: '# Agenda\n\n- pricing\n' });

    const s = await run(['calendar', 'set-notes', '8813', '--notes-file', '-', '--json'], 'from stdin\n');
    expect(s.code).toBe(0);
    expect(s.requests[0]!.body).toEqual({ privateNotes: 'from stdin\n' });
  });

  it('sets tags (repeatable, comma lists) and clears them with --clear-tags', async () => {
    const r = await run(['calendar', 'set-notes', '8814', '--tag', '1', '--tag', '2,3', '--json']);
    expect(r.code).toBe(0);
    expect(r.requests[0]!.body).toEqual({ tagIds: [1, 2, 3] });
    expect(
      JSON.parse(r.stdout)
        .tags.map((t: { id: number }) => t.id)
        .sort(),
    ).toEqual([1, 2, 3]);

    const c = await run(['calendar', 'set-notes', '8814', '--clear-tags', '--json']);
    expect(c.code).toBe(0);
    expect(c.requests[0]!.body).toEqual({ tagIds: [] });
    expect(JSON.parse(c.stdout).tags).toEqual([]);
  });

  it('prints csv, tsv and a table', async () => {
    const csv = await run(['calendar', 'set-notes', '8815', '--notes', 'n', '--format', 'csv']);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ privateNotes: 'n', 'calendarEvent.id': '8815' });

    const tsv = await run(['calendar', 'set-notes', '8815', '--notes', 'n2']);
    const [header, row] = tsv.stdout.trimEnd().split('\n');
    const cells = Object.fromEntries(header!.split('\t').map((h, i) => [h, row!.split('\t')[i]]));
    expect(cells.privateNotes).toBe('n2');

    const table = await run(['calendar', 'set-notes', '8815', '--notes', 'n3', '--format', 'table']);
    expect(table.stdout).toMatch(/^id\s+\S+/);
    expect(table.stdout).toMatch(/\nprivateNotes\s+n3\n/);
  });

  it.each([
    [['--notes', 'a', '--notes-file', 'b'], /--notes and --notes-file cannot be used together/],
    [['--clear-tags', '--tag', '3'], /--clear-tags and --tag cannot be used together/],
    [[], /nothing to set: give --notes, --notes-file, --clear-notes, --tag or --clear-tags/],
    [
      ['--notes-file', join(dir, 'missing.md')],
      /cannot read --notes-file ".*missing\.md": ENOENT: no such file/,
    ],
    [['--notes-file', dir], /cannot read --notes-file ".*": EISDIR/],
    [['--tag', '0'], /--tag must be a positive whole number/],
    [['--notes', 'x', '--fields', 'nope'], /unknown field/],
  ])('rejects %j with exit 2 and sends nothing', async (flags, message) => {
    const r = await run(['calendar', 'set-notes', '8812', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.requests).toEqual([]);
  });

  it('rejects an empty calendar meeting ID', async () => {
    const r = await run(['calendar', 'set-notes', ' ', '--notes', 'x']);
    expect(r.code).toBe(2);
    expect(r.requests).toEqual([]);
  });
});
