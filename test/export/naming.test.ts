import { realpathSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assignPaths, foldName, MAX_NAME_BYTES, safeTitle, truncateUtf8 } from '../../src/export/naming.js';
import { tempDir } from '../helpers/temp.js';

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');
const at = (n: number) => `2026-01-${String(n).padStart(2, '0')}T10:00:00Z`;

describe('export file names', () => {
  const hostile = [
    '../../x',
    '/etc/passwd',
    '..',
    'CON',
    'nul.txt',
    'COM1',
    'a\u0000b\u0007c\nd\re\u001b[31mred\u001b[0m',
    '\u202Egnp.exe',
    'trailing dots...',
    'trailing spaces   ',
    'C:\\Windows\\system32',
    '',
    null,
    '日本語'.repeat(40), // 360 bytes
    'é'.repeat(150), // 300 bytes
    '👩‍👩‍👧‍👦'.repeat(20), // grapheme clusters of 25 bytes
  ];
  const meetings = hostile.map((name, i) => ({
    id: `mtg_${String(i).padStart(12, '0')}`,
    name,
    createdAt: at(1),
  }));
  const paths = assignPaths(meetings);

  it('keeps every hostile name inside DIR as one safe file name of at most 255 bytes', () => {
    const dir = realpathSync(tempDir('mtg-names-'));
    for (const m of meetings) {
      const rel = paths.get(m.id)!;
      const [year, name, ...rest] = rel.split('/');
      expect(rest).toEqual([]);
      expect(year).toBe('2026');
      expect(name).toMatch(/^2026-01-01 .+ \(\w{8}\)\.md$/);
      expect(utf8(name!)).toBeLessThanOrEqual(MAX_NAME_BYTES);
      expect(name).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e\\/:]/);
      expect(name).not.toMatch(/\.\./);
      expect(resolve(dir, rel).startsWith(dir + sep)).toBe(true);
      // The name really is writable as one file (255 bytes is the limit of ext4 and most others).
      writeFileSync(join(dir, name!), 'x');
    }
    expect(safeTitle('CON')).toBe('_CON');
    expect(safeTitle('nul.txt')).toBe('_nul.txt');
    expect(safeTitle('../../x')).toBe('-.-x');
    expect(safeTitle('')).toBe('Untitled');
    expect(safeTitle('\u001b[31mred\u001b[0m')).toBe('red');
  });

  it('cuts long names at a character boundary, never inside a grapheme', () => {
    const long = paths.get(meetings[14]!.id)!;
    expect(long).toContain('é');
    expect(long.normalize('NFC')).toBe(long);
    const family = '👩‍👩‍👧‍👦';
    const cut = truncateUtf8(family.repeat(3), 60);
    expect(cut).toBe(family.repeat(2));
    expect(truncateUtf8('aé', 2)).toBe('a');
  });

  it('gives two meetings whose names differ only in case different files, also case-folded', () => {
    const twins = [
      { id: 'mtg_aaaa00000001', name: 'Weekly Sync', createdAt: at(2) },
      { id: 'mtg_bbbb00000001', name: 'weekly sync', createdAt: at(2) },
      // Same name, same date, same last 8 characters of the ID: the short ID grows.
      { id: 'mtg_cccc00000001', name: 'WEEKLY SYNC', createdAt: at(2) },
      // IDs that differ only in case.
      { id: 'mtg_AbCd', name: 'x', createdAt: at(3) },
      { id: 'mtg_aBcD', name: 'X', createdAt: at(3) },
    ];
    const p = assignPaths(twins);
    const folded = [...p.values()].map(foldName);
    expect(new Set(folded).size).toBe(twins.length);
    expect(p.size).toBe(twins.length);
    // Unrelated meetings keep their 8-character short ID.
    expect(assignPaths([twins[0]!]).get(twins[0]!.id)).toBe('2026/2026-01-02 Weekly Sync (00000001).md');
  });

  it('is stable: the same meeting gets the same name whatever else is exported', () => {
    const all = assignPaths(meetings);
    const some = assignPaths(meetings.slice(0, 3));
    for (const m of meetings.slice(0, 3)) expect(some.get(m.id)).toBe(all.get(m.id));
  });
});
