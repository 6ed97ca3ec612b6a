import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeForTerminal, sanitizeOneLine } from '../../src/output/sanitize.js';

const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('sanitizeForTerminal', () => {
  it.each([
    ['SGR color', 'a\u001b[31mred\u001b[0m b', 'ared b'],
    ['clear screen', '\u001b[2Jhello', 'hello'],
    ['cursor move with params', 'x\u001b[10;20Hy', 'xy'],
    ['CSI with private marker', '\u001b[?25lhidden', 'hidden'],
    ['OSC title ended by BEL', '\u001b]0;pwned\u0007text', 'text'],
    ['OSC 8 hyperlink ended by ST', '\u001b]8;;https://evil\u001b\\click\u001b]8;;\u001b\\', 'click'],
    ['DCS', 'a\u001bPq#0;2;0;0;0\u001b\\b', 'ab'],
    ['charset designation', '\u001b(Bok', 'ok'],
    ['reset', '\u001bcok', 'ok'],
    ['lone ESC at end', 'abc\u001b', 'abc'],
    ['BEL', 'ding\u0007dong', 'dingdong'],
    ['backspace and CR', 'ab\bc\rd', 'abcd'],
    ['DEL', 'a\u007fb', 'ab'],
    ['8-bit CSI', 'a\u009b31mb', 'ab'],
    ['8-bit OSC', 'a\u009d0;title\u009cb', 'ab'],
    ['other C1', 'a\u0085b\u0090', 'ab'],
    ['keeps newline and tab', 'line1\n\tline2', 'line1\n\tline2'],
    ['keeps unicode', 'Zoë 会议 🎉', 'Zoë 会议 🎉'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeForTerminal(input)).toBe(expected);
  });

  it('one-line variant turns line breaks and tabs into spaces', () => {
    expect(sanitizeOneLine('a\n\nb\tc\r\nd')).toBe('a b c d');
  });

  it('property: no control characters survive, idempotent', () => {
    const controlish = fc.constantFrom(
      '\u001b',
      '\u0007',
      '\u009b',
      '\u009d',
      '\u009c',
      '[',
      ']',
      '\\',
      '\r',
      '\n',
      '\t',
      '\u0000',
      '\u007f',
      '\u0085',
      ';',
      'm',
      '0',
    );
    const input = fc
      .array(fc.oneof(fc.string({ unit: 'grapheme' }), controlish, fc.string({ unit: 'binary' })), {
        maxLength: 30,
      })
      .map((a) => a.join(''));
    fc.assert(
      fc.property(input, (s) => {
        const out = sanitizeForTerminal(s);
        expect(out).not.toMatch(FORBIDDEN);
        expect(sanitizeForTerminal(out)).toBe(out);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: strings without controls are unchanged', () => {
    const clean = fc
      .string({ unit: 'binary' })
      .map((s) => s.replace(FORBIDDEN, '').replace(new RegExp(FORBIDDEN, 'g'), ''));
    fc.assert(
      fc.property(clean, (s) => {
        expect(sanitizeForTerminal(s)).toBe(s);
      }),
      { numRuns: 1000 },
    );
  });
});
