// fast-check arbitraries shared by the property tests.
import fc from 'fast-check';

/**
 * One code point of any plane, the surrogates excepted: the strings of fast-check's
 * `{ unit: 'binary' }`, whose first use builds a reverse table of all 1.1 million code points
 * (2 s on a quiet machine, 6 s loaded, in every test file that uses it).
 */
const anyCodePoint = fc
  .integer({ min: 0, max: 0x10ffff - 0x800 })
  .map((n) => String.fromCodePoint(n < 0xd800 ? n : n + 0x800));

/** Strings of any code points (surrogates excepted), as `fc.string({ unit: 'binary' })` makes them. */
export function anyString(
  constraints: { minLength?: number; maxLength?: number } = {},
): fc.Arbitrary<string> {
  return fc.string({ unit: anyCodePoint, ...constraints });
}
