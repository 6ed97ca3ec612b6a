import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INVISIBLE_FORMAT_CHARS, sanitizeForTerminal, sanitizeOneLine } from '../../src/shared/sanitize.js';
import { anyString } from '../helpers/arbitraries.js';

/** Where two long strings first differ (-1: equal), so that a failure does not print a megabyte. */
function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i;
  return a.length === b.length ? -1 : n;
}

const FORBIDDEN = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE_FORMAT_CHARS}]`);

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
    ['bidi override (RLO ... PDF)', 'Pay \u202eevil\u202c invoice', 'Pay evil invoice'],
    ['bidi embeddings and isolates', '\u202aa\u202bb\u202dc\u2066d\u2067e\u2068f\u2069', 'abcdef'],
    ['zero-width characters and marks', 'in\u200bvo\u200cice\u200d\u200e\u200f', 'invoice'],
    ['word joiner and BOM', 'a\u2060b\ufeffc', 'abc'],
    ['OSC ended by ESC without backslash: ESC ] goes, then ESC b', 'a\u001b]x\u001bb', 'ax'],
    ['unterminated 8-bit OSC keeps its text', 'a\u009d0;title', 'a0;title'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeForTerminal(input)).toBe(expected);
  });

  it('a 1 MB entry of lone U+009D (each an OSC that never ends) and text is cleaned in one pass', () => {
    // 250,000 of them took minutes when each searched the rest of the text for its terminator.
    const entry = 'word \u009d\u202e'.repeat(150_000); // 1,050,000 characters
    expect(firstDifference(sanitizeForTerminal(entry), 'word '.repeat(150_000))).toBe(-1);
    const lone = '\u009d'.repeat(1 << 20);
    expect(firstDifference(sanitizeForTerminal(`${lone}visible`), 'visible')).toBe(-1);
    // Each ESC ] finds the next ESC, which does not end it (ESC \ would): ESC ] goes, "0;" stays;
    // the last one is ended by the BEL and goes whole.
    const sevenBit = '\u001b]0;'.repeat(350_000);
    expect(
      firstDifference(sanitizeForTerminal(`${sevenBit}\u0007after`), `${'0;'.repeat(349_999)}after`),
    ).toBe(-1);
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
      '\u202e',
      '\u200b',
      '\u2066',
      ';',
      'm',
      '0',
    );
    const input = fc
      .array(fc.oneof(fc.string({ unit: 'grapheme' }), controlish, anyString()), {
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
    const clean = anyString().map((s) => s.replace(new RegExp(FORBIDDEN, 'g'), ''));
    fc.assert(
      fc.property(clean, (s) => {
        expect(sanitizeForTerminal(s)).toBe(s);
      }),
      { numRuns: 1000 },
    );
  });
});
