// `--stdin` reads back the tsv mtg writes: every escape of src/output/csv.ts undone, so an ID
// holding a control character (server text is hostile) is the same ID after `list | update --stdin`.
import { describe, expect, it } from 'vitest';
import { parseStdinIds } from '../../src/cli/input.js';
import { tsvEscape } from '../../src/output/csv.js';

describe('tsv on --stdin', () => {
  it.each([
    ['tab, newline, backslash', 'a\tb\nc\\d\re'],
    ['ESC, BEL, NUL, DEL and a C1 control', 'x\u001b]0;t\u0007\u0000\u007f\u009by'],
    ['a literal backslash before x', 'a\\x1bb'],
  ])('an ID with %s reads back as written', (_name, id) => {
    const row = `${tsvEscape(id)}\t${tsvEscape('title')}`;
    expect(row).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(parseStdinIds(`id\ttitle\n${row}\n`)).toEqual([id]);
  });

  it('a hand-written \\x of a printable character stays as typed', () => {
    expect(parseStdinIds('id\ttitle\na\\x41b\tt\n')).toEqual(['a\\x41b']);
  });
});
