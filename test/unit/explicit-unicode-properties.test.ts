import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript
import { REGEX_LITERAL, unicodePropertiesWrittenOut } from '../../scripts/build-plugins.mjs';

// The standalone binary's build writes the Unicode property escapes of our regular expressions out
// as code point ranges (scripts/build-plugins.mjs, explicitUnicodeProperties): each rewritten
// expression must match exactly the code points its original matches (here under this test's node,
// which also computes the ranges, as the binary's node does for the binary).
const FILES = [
  'src/shared/fold.ts',
  'src/shared/cjk.ts',
  'src/output/transcript.ts',
  'src/mirror/search-plan.ts',
  'src/mirror/search-query.ts',
  'src/mirror/search-vocab.ts',
];

const literals = (text: string): [string, string][] =>
  [...text.matchAll(REGEX_LITERAL)].map((m) => [m[1] as string, m[2] as string]);

describe("the binary's regular expressions with their Unicode properties written out", () => {
  const writeOut = unicodePropertiesWrittenOut(process.execPath) as (text: string) => string;

  it.each(FILES)('%s: every rewritten expression matches the code points its original matches', (file) => {
    const text = readFileSync(file, 'utf8');
    const before = literals(text);
    const after = literals(writeOut(text));
    expect(after).toHaveLength(before.length);
    const rewritten = before.flatMap(([body, flags], i) => {
      const [newBody, newFlags] = after[i] as [string, string];
      expect(newFlags).toBe(flags);
      return newBody === body ? [] : [[body, newBody, flags.replace(/[gy]/g, '')] as const];
    });
    // Every property of the file was written out (none is left for V8 to build at run time).
    expect(rewritten.length).toBeGreaterThan(0);
    expect(after.some(([body]) => body.includes('\\p{'))).toBe(false);
    for (const [body, newBody, flags] of rewritten) {
      const original = new RegExp(body, flags);
      const explicit = new RegExp(newBody, flags);
      const differ: number[] = [];
      for (let cp = 0; cp <= 0x10ffff && differ.length < 5; cp++) {
        const s = String.fromCodePoint(cp);
        if (original.test(s) !== explicit.test(s)) differ.push(cp);
      }
      expect(differ, `/${body}/${flags}`).toEqual([]);
    }
  });

  it('leaves alone what it cannot write out: \\P{...}, a negated class, the i and v flags, no u flag', () => {
    const text = String.raw`const a = /\P{L}/u; const b = /[^\p{L}]/u; const c = /\p{L}/iu; const d = /\p{L}/v; const e = /p{L}/;`;
    expect(writeOut(text)).toBe(text);
  });
});
