// clipText (src/shared/clip.ts): server text shown to people, cut on a character and saying how
// many characters it left out; safePrefix, the one surrogate rule of every cut (errors, MCP).
import { describe, expect, it } from 'vitest';
import { clipText, safePrefix } from '../../src/shared/clip.js';

describe('clipText', () => {
  it('leaves a text within the bound whole', () => {
    expect(clipText('short', 5)).toBe('short');
  });

  it('cuts on a character and counts the characters left out, not UTF-16 units', () => {
    // 1,000 emoji: 2,000 UTF-16 units. A cut at 11 units would fall inside the sixth.
    const clipped = clipText('😀'.repeat(1_000), 11);
    expect(clipped).toBe(`${'😀'.repeat(5)}… (995 more characters)`);
    expect(clipText(`${'a'.repeat(10)}${'é'.repeat(1_500)}`, 10)).toBe(
      `${'a'.repeat(10)}… (1,500 more characters)`,
    );
  });
});

describe('safePrefix', () => {
  it('never ends in the first half of a surrogate pair', () => {
    expect(safePrefix('a😀b', 2)).toBe('a');
    expect(safePrefix('a😀b', 3)).toBe('a😀');
    expect(safePrefix('abc', 10)).toBe('abc');
  });
});
