// Tables are for people: dates and durations read as such, every line fits the terminal from 60 to
// 200 columns, the ID column is never cut (text columns give way, with "…"), and wide characters
// (CJK, emoji: 2 columns) are measured as the terminal shows them. The built CLI on a pseudo-terminal:
// test/e2e/pty-tables.test.ts.
import { PassThrough } from 'node:stream';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { tableWriter, writeKeyValue } from '../../src/output/table.js';
import { humanDate, humanDuration } from '../../src/output/text.js';
import { type ResourceName, viewFor } from '../../src/output/views.js';

const WIDTHS = [60, 80, 120, 200];
const LONG_ID = 'mtg_01HZX3Q9V8K2M4N6P8R0T2W4Y6';

async function render(
  resource: ResourceName,
  items: unknown[],
  width: number,
  now?: number,
): Promise<string[]> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => {
    text += d.toString('utf8');
  });
  const w = tableWriter(out, viewFor(resource), { format: 'table', color: false, width, now });
  await w.writeMany(items);
  await w.end();
  return text.trimEnd().split('\n');
}

const meetings = [
  {
    id: LONG_ID,
    name: 'Quarterly planning with the whole product organisation and guests from sales',
    createdAt: '2025-06-01T11:11:00.000Z',
    updatedAt: '2025-06-01T11:11:00.000Z',
    duration: 1996,
    tags: [
      { id: 1, name: 'planning' },
      { id: 2, name: 'quarterly-review-long-tag-name' },
    ],
  },
  {
    id: 'mtg_2',
    name: '東京チームとの打ち合わせ 🎉🎉 and more words to make it long enough',
    createdAt: '2025-05-02T08:00:00.000Z',
    updatedAt: '2025-05-02T08:00:00.000Z',
    duration: 3725,
    tags: [],
  },
];

describe('human units', () => {
  it('durations: 33m 16s, 1h 02m, 42s', () => {
    expect(humanDuration(1996)).toBe('33m 16s');
    expect(humanDuration(3725)).toBe('1h 02m');
    expect(humanDuration(42)).toBe('42s');
  });
  it('dates: relative within a week, local date and time beyond', () => {
    const now = Date.parse('2025-06-04T12:00:00Z');
    expect(humanDate('2025-06-01T11:11:00.000Z', now)).toBe('3 days ago');
    expect(humanDate('2025-06-04T11:55:00.000Z', now)).toBe('5 minutes ago');
    const local = humanDate('2025-05-01T11:11:00.000Z', now);
    expect(local).toMatch(/^2025-05-0[12] \d\d:11$/);
    expect(humanDate('not a date', now)).toBe('not a date');
  });
});

describe('a date gives way before a name does', () => {
  // COLUMNS=60 and a long ID: the name had kept 5 columns while the date kept all 16.
  const now = Date.parse('2025-06-25T12:00:00Z');
  const nameCell = (lines: string[], row: number) => {
    const header = lines[0]!;
    return lines[row]!.slice(header.indexOf('name'), header.indexOf('createdAt')).trim();
  };

  it('at 60 columns every date takes its relative form and the name keeps the room', async () => {
    const rows = [
      {
        id: 'mtg_450526d9f2a2',
        name: 'Incident retro with Stark Industries',
        createdAt: '2025-06-01T11:11:00.000Z',
        duration: 4200,
        tags: [],
      },
      {
        id: 'mtg_3fa1c9e07b42',
        name: 'Pricing review',
        createdAt: '2025-05-02T08:00:00.000Z',
        duration: 60,
        tags: [],
      },
    ];
    const lines = await render('meeting', rows, 60, now);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(60);
    expect(lines[1]).toContain('3 weeks ago');
    expect(lines[2]).toContain('1 month ago');
    expect(lines.join('\n')).not.toMatch(/2025-0\d-\d\d \d\d:\d\d/);
    // With the 16-column date the name kept 8 columns; now it has the date's 5 more.
    expect(stringWidth(nameCell(lines, 1))).toBe(13);
  });

  it('when everything fits, dates stay local date and time', async () => {
    const lines = await render('meeting', meetings, 200, now);
    expect(lines[1]).toMatch(/2025-06-01 \d\d:11/);
  });

  it('short forms: weeks, months, years ago; a future date as its day', async () => {
    const { shortDate } = await import('../../src/output/text.js');
    expect(shortDate('2025-06-01T11:11:00.000Z', now)).toBe('3 weeks ago');
    expect(shortDate('2024-01-01T00:00:00.000Z', now)).toBe('1 year ago');
    expect(shortDate('2025-06-25T11:00:00.000Z', now)).toBe('1 hour ago');
    expect(shortDate('2025-07-02T12:00:00.000Z', now)).toBe('2025-07-02');
    expect(shortDate('soon', now)).toBe('soon');
  });
});

describe('meeting tables fit every width without cutting the ID', () => {
  for (const width of WIDTHS) {
    it(`${width} columns`, async () => {
      const lines = await render('meeting', meetings, width);
      for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(width);
      expect(lines[1]).toContain(LONG_ID);
      // At 60 columns this 30-character ID leaves too little room for every column in full.
      if (width >= 80) expect(lines[1]).toContain('33m 16s');
      if (width >= 80) expect(lines[2]).toContain('1h 02m');
      expect(lines.join('\n')).not.toContain('T11:11:00');
      expect(lines.join('\n')).not.toContain('1996');
      if (width < 120) expect(lines[1]).toContain('…');
    });
  }

  it('a CJK/emoji name lines up: the next column starts at the same terminal column', async () => {
    const lines = await render('meeting', meetings, 200);
    const start = (line: string, needle: string) => stringWidth(line.slice(0, line.indexOf(needle)));
    const header = lines[0]!;
    expect(start(lines[2]!, '2025-05-0')).toBe(start(header, 'createdAt'));
    expect(start(lines[1]!, '2025-06-01')).toBe(start(header, 'createdAt'));
  });

  it('CJK text is cut by columns, not characters, at 80 columns', async () => {
    // (At 60 this 30-column ID and the whole date leave the name 4 columns: names give way first.)
    const lines = await render('meeting', meetings, 80);
    expect(stringWidth(lines[2]!)).toBeLessThanOrEqual(80);
    expect(lines[2]).toContain('東京');
  });
});

describe('columns give way in the order a person would', () => {
  const meeting = {
    id: 'mtg_450526d9f2a2',
    name: 'Incident retro with Stark Industries and the on-call team',
    createdAt: '2025-06-01T11:11:00.000Z',
    duration: 4200,
    tags: [{ name: 'sales' }, { name: 'roadmap' }], // "sales, roadmap": short, but free text
  };
  const cellsOf = (lines: string[]) => {
    const header = lines[0]!;
    const at = (name: string) => header.indexOf(name);
    const row = lines[1]!;
    return {
      name: row.slice(at('name'), at('createdAt')).trim(),
      createdAt: row.slice(at('createdAt'), at('duration')).trim(),
      duration: row.slice(at('duration'), at('tags')).trim(),
      tags: row.slice(at('tags')).trim(),
    };
  };

  it('at 60 columns the date gives way to its relative form, then the name and the tags share what is left', async () => {
    const lines = await render('meeting', [meeting], 60, Date.parse('2025-06-25T12:00:00Z'));
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(60);
    const c = cellsOf(lines);
    expect(c.createdAt).toBe('3 weeks ago');
    expect(c.duration).toBe('1h 10m');
    expect(c.name.endsWith('…')).toBe(true);
    // Widest first: the name is not cut below the width of the tag list beside it (give or take
    // the one column of an odd share).
    expect(stringWidth(c.name)).toBeGreaterThanOrEqual(stringWidth(c.tags) - 1);
  });

  it('a column keeps its header whole while others can still give way', async () => {
    const person = {
      id: 21,
      firstName: 'Oskar',
      lastName: 'Kowalski',
      email: 'oskar.kowalski21@globex.example',
      companyName: 'Globex',
      title: 'Customer Success Manager',
    };
    const lines = await render('person', [person], 80);
    expect(lines[0]).toMatch(/^id\s+firstName\s+lastName\s+email\s+companyName\s+title$/);
    expect(lines[1]).toContain(person.email);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(80);
  });

  it('at 80 columns the tags are whole and the name takes the rest', async () => {
    const lines = await render('meeting', [meeting], 80);
    const c = cellsOf(lines);
    expect(c.tags).toBe('sales, roadmap');
    expect(stringWidth(lines[1]!)).toBe(80);
  });
});

describe('other resources keep their ID whole', () => {
  it('people, action items, companies at 60 columns', async () => {
    const person = {
      id: 123456789,
      firstName: 'Bartholomew-Alexander',
      lastName: 'Featherstonehaugh-Worthington',
      email: 'bartholomew.alexander@very-long-company-domain.example',
      companyName: 'Very Long Company Name International Holdings',
      title: 'Senior Vice President of Extremely Long Titles',
    };
    for (const line of await render('person', [person], 60))
      expect(stringWidth(line)).toBeLessThanOrEqual(60);
    expect((await render('person', [person], 60))[1]).toContain('123456789');

    const item = {
      id: 987654321,
      status: 'PENDING',
      title: 'Write the very long follow-up document for the quarterly planning meeting',
      assignee: { name: 'Somebody With A Long Name' },
      meetingIds: [LONG_ID, 'mtg_other_meeting_id_0001'],
    };
    const itemLines = await render('actionItem', [item], 60);
    for (const line of itemLines) expect(stringWidth(line)).toBeLessThanOrEqual(60);
    expect(itemLines[1]).toContain('987654321');

    const company = { domain: 'research.long-company-name.example', name: 'X'.repeat(80) };
    const companyLines = await render('company', [company], 60);
    for (const line of companyLines) expect(stringWidth(line)).toBeLessThanOrEqual(60);
    expect(companyLines[1]).toContain(company.domain);
  });

  it('key/value view: durations and dates human, lines fit', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => {
      text += d.toString('utf8');
    });
    await writeKeyValue(out, meetings[0], viewFor('meeting'), { format: 'table', color: false, width: 60 });
    expect(text).toMatch(/duration\s+33m 16s/);
    expect(text).not.toContain('T11:11:00');
    for (const line of text.trimEnd().split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(60);
  });
});
