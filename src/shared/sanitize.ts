// Server text is untrusted: a meeting title could carry escape sequences that repaint the screen,
// retitle the terminal, or plant clickable links (OSC 8), and bidi overrides or zero-width
// characters that make "Pay ‮evil‬ invoice" read otherwise than it is. Everything a terminal would
// interpret is removed before it is printed; \n and \t survive so multi-line renderers keep their
// layout.
//
// One pass over the text, in time linear in its length whatever it holds: a chain of regular
// expressions was quadratic on hostile text (each of 40,000 lone U+009D started an OSC whose
// terminator was searched for to the end of the text: 10 s; 500 KB took minutes).

/**
 * The invisible format characters that reorder or hide text: zero-width space, non-joiner and
 * joiner, the LRM/RLM marks (U+200B-200F), bidi embeddings and overrides (U+202A-202E), the word
 * joiner, invisible operators and bidi isolates (U+2060-2069), and the BOM/zero-width no-break
 * space (U+FEFF). Inclusive ranges, written once: the terminal's check and the class below.
 */
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2069],
  [0xfeff, 0xfeff],
];

const hex = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;
/** INVISIBLE_RANGES as the inside of a RegExp character class; the export's file names use it too. */
export const INVISIBLE_FORMAT_CHARS = INVISIBLE_RANGES.map(([a, b]) =>
  a === b ? hex(a) : `${hex(a)}-${hex(b)}`,
).join('');

// Cheap pre-check so the common case (plain text) allocates nothing: C0 except \t and \n, DEL, C1,
// and the invisible format characters.
const ANY_UNSAFE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE_FORMAT_CHARS}]`);

const ESC = 0x1b;
const BEL = 0x07;
const ST = 0x9c;

const isInvisible = (c: number) =>
  c >= 0x200b && c <= 0xfeff && INVISIBLE_RANGES.some(([a, b]) => c >= a && c <= b);

/** C0 except \t and \n, DEL, C1: dropped wherever they stand outside a sequence removed whole. */
const isControl = (c: number) => (c < 0x20 && c !== 0x09 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f);

/** 8-bit introducers of string sequences: DCS, SOS, OSC, PM, APC. */
const isC1StringIntroducer = (c: number) =>
  c === 0x90 || c === 0x98 || c === 0x9d || c === 0x9e || c === 0x9f;

/** The characters after ESC that open a string sequence: ] P X ^ _ (OSC, DCS, SOS, PM, APC). */
const isStringIntroducerAfterEsc = (c: number) =>
  c === 0x5d || c === 0x50 || c === 0x58 || c === 0x5e || c === 0x5f;

/**
 * Strips terminal control sequences, control characters other than \n and \t, bidi overrides and
 * zero-width characters. Linear in the length of `s`; idempotent (nothing it keeps can start a
 * sequence).
 *
 * Whole sequences go, so that their parameters ("31m", "0;title") do not leak into the output:
 *  - string sequences (OSC, DCS, SOS, PM, APC; 7-bit and 8-bit introducers) up to BEL or ST;
 *  - CSI (ESC [ or 8-bit CSI): parameter bytes, intermediate bytes, one final byte;
 *  - other escape sequences: ESC, intermediate bytes, one final byte (ESC c, ESC ( B, ESC 7 ...).
 * An introducer without its ending (an OSC never terminated, a lone ESC) goes alone, and what
 * follows it is kept as text, itself sanitized.
 */
export function sanitizeForTerminal(s: string): string {
  if (!ANY_UNSAFE.test(s)) return s;
  const n = s.length;
  // The kept characters, copied as UTF-16 code units (lone surrogates included, unchanged): many
  // short kept runs between controls made string concatenation the slowest part.
  const kept = new Uint16Array(n);
  let length = 0;
  // The first BEL, ESC or ST at or after where it was last searched from (n: none). A string
  // sequence ends there or nowhere, and the positions searched from only grow, so each character
  // is looked at for it once: this keeps a text of many unterminated introducers linear.
  let stop = -1;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (!isControl(c) && !isInvisible(c)) {
      kept[length++] = c;
      i++;
      continue;
    }
    let end = -1;
    let content = -1; // where a string sequence's content starts
    if (c === ESC && i + 1 < n) {
      const next = s.charCodeAt(i + 1);
      if (isStringIntroducerAfterEsc(next)) content = i + 2;
      else if (next === 0x5b) end = csiEnd(s, i + 2);
    } else if (isC1StringIntroducer(c)) {
      content = i + 1;
    } else if (c === 0x9b) {
      end = csiEnd(s, i + 1);
    }
    if (content >= 0) {
      if (stop < content) stop = nextStop(s, content);
      end = stringEnd(s, stop);
    }
    // Not a whole sequence: ESC and the character after it go if they form an escape sequence.
    if (end < 0 && c === ESC) end = escEnd(s, i + 1);
    i = end < 0 ? i + 1 : end;
  }
  return fromCodeUnits(kept, length);
}

/** The first BEL, ESC or ST at or after `from`, or the length of `s`. */
function nextStop(s: string, from: number): number {
  const n = s.length;
  let j = from;
  for (; j < n; j++) {
    const c = s.charCodeAt(j);
    if (c === BEL || c === ESC || c === ST) break;
  }
  return j;
}

/** The end (exclusive) of a string sequence whose first BEL/ESC/ST is at `stop`, or -1 when it has no terminator. */
function stringEnd(s: string, stop: number): number {
  if (stop >= s.length) return -1;
  const c = s.charCodeAt(stop);
  if (c === BEL || c === ST) return stop + 1;
  return s.charCodeAt(stop + 1) === 0x5c ? stop + 2 : -1; // ESC \
}

/** The end (exclusive) of a CSI whose parameters start at `from`, or -1 when it has no final byte. */
function csiEnd(s: string, from: number): number {
  const n = s.length;
  let j = from;
  while (j < n && s.charCodeAt(j) >= 0x30 && s.charCodeAt(j) <= 0x3f) j++;
  while (j < n && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x2f) j++;
  return j < n && s.charCodeAt(j) >= 0x40 && s.charCodeAt(j) <= 0x7e ? j + 1 : -1;
}

/** The end (exclusive) of an escape sequence whose intermediate bytes start at `from`, or -1. */
function escEnd(s: string, from: number): number {
  const n = s.length;
  let j = from;
  while (j < n && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x2f) j++;
  return j < n && s.charCodeAt(j) >= 0x30 && s.charCodeAt(j) <= 0x7e ? j + 1 : -1;
}

/** The first `length` code units of `units` as a string, in chunks (fromCharCode's arguments are bounded). */
function fromCodeUnits(units: Uint16Array, length: number): string {
  const CHUNK = 8192;
  const parts: string[] = [];
  for (let at = 0; at < length; at += CHUNK) {
    parts.push(
      String.fromCharCode.apply(
        null,
        units.subarray(at, Math.min(at + CHUNK, length)) as unknown as number[],
      ),
    );
  }
  return parts.join('');
}

/** For one-line contexts (table cells): sanitized, and any run of line breaks or tabs becomes one space. */
export function sanitizeOneLine(s: string): string {
  return sanitizeForTerminal(s).replace(/[\t\n]+/g, ' ');
}
