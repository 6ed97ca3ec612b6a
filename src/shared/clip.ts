// Server text shown to people is bounded: an error envelope of 2 MB was printed whole. A cut falls
// on a character boundary (never between the halves of a surrogate pair) and says what it left out.

/** `s` when it is at most `max` UTF-16 units; else its start, "…", and how many characters were cut. */
export function clipText(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${s.slice(0, end)}… (${(s.length - end).toLocaleString('en-US')} more characters)`;
}
