// `mtg calendar set-notes` in-process against the sandbox.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect } from 'vitest';
import { sandboxTest } from '../../helpers/fixtures.js';
import { tempDir } from '../../helpers/temp.js';

const dir = tempDir('mtg-calendar-test-');
const test = sandboxTest({ limits: 'none' });

describe('calendar set-notes', () => {
  test('sends the notes and prints the meeting', async ({ mtg }) => {
    const r = await mtg(['calendar', 'set-notes', '8812', '--notes', 'Ask about the **budget**', '--json']);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['PUT', '/calendar/events/8812/meeting', { privateNotes: 'Ask about the **budget**' }],
    ]);
    const meeting = JSON.parse(r.stdout);
    expect(meeting).toMatchObject({ privateNotes: 'Ask about the **budget**', calendarEvent: { id: 8812 } });
  });

  test('reads the notes from a file, and from stdin with -', async ({ mtg }) => {
    const file = join(dir, 'notes.md');
    writeFileSync(file, '# Agenda\n\n- pricing\n');
    const r = await mtg(['calendar', 'set-notes', '8813', '--notes-file', file, '--json']);
    expect(r.code).toBe(0);
    expect(r.requests[0]!.body).toEqual({ privateNotes: '# Agenda\n\n- pricing\n' });

    const s = await mtg(['calendar', 'set-notes', '8813', '--notes-file', '-', '--json'], {
      input: 'from stdin\n',
    });
    expect(s.code).toBe(0);
    expect(s.requests[0]!.body).toEqual({ privateNotes: 'from stdin\n' });
  });

  test('sets tags (repeatable, comma lists) and clears them with --clear-tags', async ({ mtg }) => {
    const r = await mtg(['calendar', 'set-notes', '8814', '--tag', '1', '--tag', '2,3', '--json']);
    expect(r.code).toBe(0);
    expect(r.requests[0]!.body).toEqual({ tagIds: [1, 2, 3] });
    expect(
      JSON.parse(r.stdout)
        .tags.map((t: { id: number }) => t.id)
        .sort(),
    ).toEqual([1, 2, 3]);

    const c = await mtg(['calendar', 'set-notes', '8814', '--clear-tags', '--json']);
    expect(c.code).toBe(0);
    expect(c.requests[0]!.body).toEqual({ tagIds: [] });
    expect(JSON.parse(c.stdout).tags).toEqual([]);
  });

  test('prints csv, tsv and a table', async ({ mtg }) => {
    const csv = await mtg(['calendar', 'set-notes', '8815', '--notes', 'n', '--format', 'csv']);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ privateNotes: 'n', 'calendarEvent.id': '8815' });

    const tsv = await mtg(['calendar', 'set-notes', '8815', '--notes', 'n2']);
    const [header, row] = tsv.stdout.trimEnd().split('\n');
    const cells = Object.fromEntries(header!.split('\t').map((h, i) => [h, row!.split('\t')[i]]));
    expect(cells.privateNotes).toBe('n2');

    const table = await mtg(['calendar', 'set-notes', '8815', '--notes', 'n3', '--format', 'table']);
    expect(table.stdout).toMatch(/^id\s+\S+/);
    expect(table.stdout).toMatch(/\nprivateNotes\s+n3\n/);
  });

  test.for<[string[], RegExp]>([
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
  ])('rejects %j with exit 2 and sends nothing', async ([flags, message], { mtg }) => {
    const r = await mtg(['calendar', 'set-notes', '8812', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.requests).toEqual([]);
  });

  test('rejects an empty calendar meeting ID', async ({ mtg }) => {
    const r = await mtg(['calendar', 'set-notes', ' ', '--notes', 'x']);
    expect(r.code).toBe(2);
    expect(r.requests).toEqual([]);
  });
});
