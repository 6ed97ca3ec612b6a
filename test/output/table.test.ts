import { describe, expect, it } from 'vitest';
import { colorEnabled } from '../../src/cli/io.js';
import {
  createItemWriter,
  defaultFormat,
  humanCount,
  truncate,
  viewFor,
  writeOne,
} from '../../src/output/index.js';
import { fitWidths, GiveWay, giveWayOf } from '../../src/output/table.js';
import { padToWidth, visibleWidth } from '../../src/output/text.js';
import { ANSI, collector } from './helpers.js';

const view = viewFor('actionItem');
const items = [
  {
    id: 11,
    title: 'Send the deck',
    status: 'DONE',
    assignee: { profileId: 1, name: 'Ann' },
    meetingIds: ['m1', 'm2'],
  },
  {
    id: 12,
    title: 'Evil \u001b]0;pwned\u0007title\u001b[2J\nsecond line',
    status: 'PENDING',
    assignee: null,
    meetingIds: [],
  },
];

async function table(input: unknown[], color: boolean, width?: number, fields?: string[]) {
  const c = collector();
  const w = createItemWriter(c.stream, view, { format: 'table', color, width, fields });
  for (const it of input) await w.write(it);
  await w.end();
  return c.text();
}

describe('table', () => {
  it('shows the default columns and values, no escape sequences when color is off', async () => {
    const text = await table(items, false);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^id\s+status\s+title\s+assignee\.name\s+meetingIds$/);
    expect(lines[1]).toMatch(/^11\s+DONE\s+Send the deck\s+Ann\s+m1, m2$/);
    expect(text).toContain('Evil title second line');
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
  });

  it('colors status and dims secondary columns when color is on', async () => {
    const text = await table(items, true);
    expect(text).toMatch(ANSI);
    expect(text).toContain('\u001b[32mDONE'); // green
    expect(text).toContain('\u001b[33mPENDING'); // yellow
    expect(text).toContain('\u001b[2m11'); // dim id
    // server-sent sequences are still gone: only our SGR codes remain
    expect(text.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('fits the width, truncating long cells with …', async () => {
    const long = { ...items[0], title: 'x'.repeat(300) };
    const text = await table([long], false, 60);
    for (const line of text.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    expect(text).toContain('…');
  });

  it('long lists (rendered in blocks) stay aligned with one header', async () => {
    const many = Array.from({ length: 450 }, (_, i) => ({
      ...items[0],
      id: i + 1,
      title: 't'.repeat(i % 40),
    }));
    const lines = (await table(many, false)).trimEnd().split('\n');
    expect(lines).toHaveLength(451);
    expect(lines.filter((l) => l.startsWith('id '))).toHaveLength(1);
    const statusAt = lines[0]!.indexOf('status');
    for (const l of lines.slice(1)) expect(l.indexOf('DONE')).toBe(statusAt);
  });

  it('prints nothing for an empty list', async () => {
    expect(await table([], false)).toBe('');
  });

  it('--fields picks the columns', async () => {
    const text = await table(items, false, 100, ['title', 'id']);
    expect(text.split('\n')[0]).toMatch(/^title\s+id$/);
  });

  it('writeOne renders key/value lines, skipping absent fields', async () => {
    const c = collector();
    await writeOne(c.stream, { id: 5, name: 'sales', description: null }, viewFor('tag'), {
      format: 'table',
      color: false,
    });
    expect(c.text()).toBe('id           5\nname         sales\ndescription\n');
  });

  it('columns give way by what they hold: text, then what is copied whole, then short facts; IDs never', () => {
    for (const c of ['name', 'title', 'description', 'tags', 'assignee.name', 'companyName', 'snippet'])
      expect(giveWayOf(c), c).toBe(GiveWay.text);
    for (const c of [
      'email',
      'assignee.email',
      'url',
      'recordingUrl',
      'meetingIds',
      'teamId',
      'calendarEvent.id',
    ])
      expect(giveWayOf(c), c).toBe(GiveWay.copied);
    for (const c of ['createdAt', 'at', 'duration', 'status', 'access', 'timestamp'])
      expect(giveWayOf(c), c).toBe(GiveWay.facts);
    for (const c of ['id', 'domain']) expect(giveWayOf(c), c).toBe(GiveWay.never);
  });

  it('fitWidths gives way from the widest columns', () => {
    expect(fitWidths([2, 10, 50], 100)).toEqual([2, 10, 50]);
    const w = fitWidths([2, 10, 80, 80], 60);
    expect(w[0]).toBe(2);
    expect(w[1]).toBe(10);
    expect(w.reduce((a, b) => a + b, 0) + 2 * 3).toBeLessThanOrEqual(60);
  });
});

describe('colorEnabled', () => {
  const tty = true;
  const pipe = false;
  it.each([
    ['tty', tty, false, {}, true],
    ['pipe', pipe, false, {}, false],
    ['--no-color', tty, true, {}, false],
    ['NO_COLOR', tty, false, { NO_COLOR: '1' }, false],
    ['empty NO_COLOR is ignored', tty, false, { NO_COLOR: '' }, true],
    ['FORCE_COLOR on a pipe', pipe, false, { FORCE_COLOR: '1' }, true],
    ['FORCE_COLOR=0 on a tty', tty, false, { FORCE_COLOR: '0' }, false],
    ['NO_COLOR beats FORCE_COLOR', pipe, false, { NO_COLOR: '1', FORCE_COLOR: '1' }, false],
    ['--no-color beats FORCE_COLOR', pipe, true, { FORCE_COLOR: '3' }, false],
    ['TERM=dumb', tty, false, { TERM: 'dumb' }, false],
  ])('%s', (_n, isTTY, noColorFlag, env, expected) => {
    expect(colorEnabled(isTTY, noColorFlag, env)).toBe(expected);
  });
});

describe('text helpers', () => {
  it('padToWidth pads to terminal columns (CJK are 2), styling codes count 0', () => {
    expect(padToWidth('待办', 7)).toBe('待办   ');
    expect(visibleWidth(padToWidth('待办', 7))).toBe(7);
    expect(padToWidth('\u001b[1mab\u001b[22m', 4)).toBe('\u001b[1mab\u001b[22m  ');
    expect(padToWidth('toolong', 3)).toBe('toolong');
  });
  it('truncate counts terminal columns (emoji are 2)', () => {
    expect(truncate('hello', 5)).toBe('hello');
    expect(truncate('hello world', 6)).toBe('hello…');
    expect(truncate('🎉🎉🎉', 3)).toBe('🎉…');
    expect(truncate('🎉🎉🎉', 2)).toBe('…');
    expect(truncate('abc', 0)).toBe('');
  });
  it('humanCount', () => {
    expect(humanCount(1250)).toBe('1,250');
    expect(humanCount(0)).toBe('0');
  });
  it('defaultFormat', () => {
    expect(defaultFormat(true)).toBe('table');
    expect(defaultFormat(false)).toBe('tsv');
  });
});
