// Server text shown to people is bounded: an error envelope of 2 MB was printed whole. A cut falls
// on a character boundary (never between the halves of a surrogate pair) and says what it left out.

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** At most `n` UTF-16 units of `s`, never ending in the first half of a surrogate pair. */
export function safePrefix(s: string, n: number): string {
  if (n >= s.length) return s;
  return s.slice(0, isHighSurrogate(s.charCodeAt(n - 1)) ? n - 1 : n);
}

/** The characters (code points) of `s` from `start`: a surrogate pair is one. */
function charsFrom(s: string, start: number): number {
  let count = 0;
  for (let i = start; i < s.length; i++) {
    const code = s.charCodeAt(i);
    // The second half of a pair is counted with its first.
    const second = code >= 0xdc00 && code <= 0xdfff && i > start && isHighSurrogate(s.charCodeAt(i - 1));
    if (!second) count++;
  }
  return count;
}

/** `s` when it is at most `max` UTF-16 units; else its start, "…", and how many characters were cut. */
export function clipText(s: string, max: number): string {
  if (s.length <= max) return s;
  const kept = safePrefix(s, max);
  return `${kept}… (${charsFrom(s, kept.length).toLocaleString('en-US')} more characters)`;
}
