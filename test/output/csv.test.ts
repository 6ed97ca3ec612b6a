import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createItemWriter,
  type ResourceView,
  viewFor,
  type WriterOptions,
  writeOne,
} from '../../src/output/index.js';
import { anyString } from '../helpers/arbitraries.js';
import { collector } from './helpers.js';

const view = viewFor('actionItem');

async function write(input: unknown[], opts: Partial<WriterOptions> & { format: 'csv' | 'tsv' }, v = view) {
  const c = collector();
  const w = createItemWriter(c.stream, v, { color: false, ...opts });
  await w.writeMany(input);
  await w.end();
  return c.text();
}

const parseCsv = (text: string): string[][] => parse(text, { bom: true, relax_column_count: false });

describe('csv', () => {
  const items = [
    {
      id: 1,
      title: 'a, "quoted" title\nwith newline\r\nand CRLF',
      description: 'Zoë 会议 🎉',
      assignee: { profileId: 3, name: 'Ann', title: null, companyName: 'Acme', email: 'a@x.io' },
      status: 'DONE',
      meetingIds: ['m1', 'm2'],
    },
    { id: 2, title: 'plain', description: '', assignee: null, status: 'PENDING', meetingIds: [] },
  ];

  it('header + one row per item, flattened by dotted path, round-trips through csv-parse', async () => {
    const rows = parseCsv(await write(items, { format: 'csv' }));
    expect(rows[0]).toEqual(view.fields);
    expect(rows[1]).toEqual([
      '1',
      'a, "quoted" title\nwith newline\r\nand CRLF',
      'Zoë 会议 🎉',
      '3',
      'Ann',
      '',
      'Acme',
      'a@x.io',
      'DONE',
      'm1;m2',
    ]);
    expect(rows[2]).toEqual(['2', 'plain', '', '', '', '', '', '', 'PENDING', '']);
  });

  it('uses LF line ends and RFC 4180 quoting', async () => {
    const text = await write([{ id: 1, title: 'x,"y"' }], { format: 'csv', fields: ['id', 'title'] });
    expect(text).toBe('id,title\n1,"x,""y"""\n');
  });

  it('--fields chooses and orders columns', async () => {
    const rows = parseCsv(await write(items, { format: 'csv', fields: ['status', 'assignee.name', 'id'] }));
    expect(rows).toEqual([
      ['status', 'assignee.name', 'id'],
      ['DONE', 'Ann', '1'],
      ['PENDING', '', '2'],
    ]);
  });

  it('formula prefix for text cells, not for numbers; off with rawCells', async () => {
    const input = [{ id: -5, title: '=HYPERLINK("x")', description: '+1', status: '@x', meetingIds: ['-m'] }];
    const fields = ['id', 'title', 'description', 'status', 'meetingIds'];
    const guarded = parseCsv(await write(input, { format: 'csv', fields }));
    expect(guarded[1]).toEqual(['-5', '\'=HYPERLINK("x")', "'+1", "'@x", "'-m"]);
    const tabbed = parseCsv(
      await write([{ a: '\tx', b: '\rx', c: '-', d: 'a=b' }], { format: 'csv' }, viewFor('raw')),
    );
    expect(tabbed[1]).toEqual(["'\tx", "'\rx", "'-", 'a=b']);
    const raw = parseCsv(await write(input, { format: 'csv', fields, rawCells: true }));
    expect(raw[1]).toEqual(['-5', '=HYPERLINK("x")', '+1', '@x', '-m']);
  });

  it('bom: U+FEFF first (csv only)', async () => {
    const text = await write(items, { format: 'csv', bom: true, fields: ['id'] });
    expect(text.startsWith('\uFEFFid\n')).toBe(true);
    expect((await write(items, { format: 'tsv', bom: true, fields: ['id'] })).startsWith('id\n')).toBe(true);
  });

  it('header only for an empty list; tags by name; booleans; objects as JSON', async () => {
    expect(await write([], { format: 'csv', fields: ['id', 'title'] })).toBe('id,title\n');
    const meeting = {
      id: 'm1',
      tags: [
        { id: 1, name: 'sales', description: null },
        { id: 2, name: 'q3', description: null },
      ],
      attendees: [{ profileId: 1, name: 'A', isCalendarInvitee: true }],
      insights: { risks: [] },
      calendarEvent: null,
    };
    const rows = parseCsv(
      await write(
        [meeting],
        {
          format: 'csv',
          fields: ['id', 'tags', 'attendees', 'insights', 'calendarEvent.id'],
        },
        viewFor('meeting'),
      ),
    );
    expect(rows[1]).toEqual([
      'm1',
      'sales;q3',
      '{"profileId":1,"name":"A","isCalendarInvitee":true}', // each element as JSON, joined with ;
      '{"risks":[]}',
      '',
    ]);
    const bools = parseCsv(await write([{ a: true, b: false, c: null }], { format: 'csv' }, viewFor('raw')));
    expect(bools).toEqual([
      ['a', 'b', 'c'],
      ['true', 'false', ''],
    ]);
  });

  it('writeOne prints header + row', async () => {
    const c = collector();
    await writeOne(c.stream, { id: 7, name: 'x', description: null }, viewFor('tag'), {
      format: 'csv',
      color: false,
    });
    expect(c.text()).toBe('id,name,description\n7,x,\n');
  });

  it('property: arbitrary records round-trip through csv-parse', async () => {
    const raw: ResourceView = viewFor('raw');
    const text = fc.string({
      unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\n', '\r', ';', '=', '-', 'é', '会', '🎉', "'"),
    });
    const anyText = fc.oneof(text, fc.string({ unit: 'grapheme' }));
    const arb = fc.record({
      cols: fc.integer({ min: 1, max: 5 }),
      rows: fc.array(fc.array(anyText, { minLength: 5, maxLength: 5 }), { maxLength: 20 }),
      rawCells: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ cols, rows, rawCells }) => {
        const fields = Array.from({ length: cols }, (_, i) => `c${i}`);
        const items = rows.map((r) => Object.fromEntries(fields.map((f, i) => [f, r[i]])));
        const out = await write(items, { format: 'csv', fields, rawCells }, raw);
        const parsed = parseCsv(out);
        const guard = (s: string) => (!rawCells && /^[=+\-@\t\r]/.test(s) ? "'" + s : s);
        expect(parsed).toEqual([fields, ...rows.map((r) => r.slice(0, cols).map(guard))]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('tsv', () => {
  it('tab-separated, one line per item, \\ \\t \\n \\r escaped', async () => {
    const text = await write([{ id: 1, title: 'a\tb\nc\r\nd \\ e', status: 'DONE' }], {
      format: 'tsv',
      fields: ['id', 'title', 'status'],
    });
    expect(text).toBe('id\ttitle\tstatus\n1\ta\\tb\\nc\\r\\nd \\\\ e\tDONE\n');
    expect(text.trimEnd().split('\n')).toHaveLength(2);
  });

  it('a pipe gets no raw control: ESC, BEL, NUL, DEL and C1 controls as \\xHH, the rest exact', async () => {
    // tsv is the default into a pipe: `mtg meetings list | head` reaches a terminal (QA).
    const title = 'x\u001b]0;pwned\u0007 \u001b[2J\u0000\u007f\u009b2J Ünï 会議 \u202e';
    const text = await write([{ id: 1, title }], { format: 'tsv', fields: ['id', 'title'] });
    expect(text).toBe('id\ttitle\n1\tx\\x1b]0;pwned\\x07 \\x1b[2J\\x00\\x7f\\x9b2J Ünï 会議 \u202e\n');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('formula guard applies to tsv too', async () => {
    const text = await write([{ id: 1, title: '=1+1' }], { format: 'tsv', fields: ['id', 'title'] });
    expect(text).toBe("id\ttitle\n1\t'=1+1\n");
  });

  it("property: every item is exactly one line with the header's column count", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.string(), anyString()), { maxLength: 10 }), async (rows) => {
        const items = rows.map(([a, b]) => ({ a, b }));
        const out = await write(items, { format: 'tsv', fields: ['a', 'b'] }, viewFor('raw'));
        const lines = out.split('\n');
        expect(lines.pop()).toBe('');
        expect(lines).toHaveLength(items.length + 1);
        for (const l of lines) expect(l.split('\t')).toHaveLength(2);
      }),
      { numRuns: 100 },
    );
  });
});
