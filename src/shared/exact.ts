// Integers beyond 2^53 kept exactly as the server wrote them. JSON.parse would round
// 90071992547409931 to 90071992547409940, and json/ndjson promise values as the API sent them.
// Node 20 has neither JSON.parse's source text nor JSON.rawJSON, so parseJsonExact() pre-scans
// only the bodies that hold a run of 16+ digits (the rest take plain JSON.parse, unchanged), and
// only unsafe integer literals become ExactInteger: every other number stays a plain JS number.

/** An ID as sent in a path or a JSON body: a plain number, or its exact digits beyond 2^53. */
export type ExactId = number | ExactInteger;

/** An integer literal too large for a double, kept as its text. */
export class ExactInteger {
  constructor(readonly text: string) {
    // Made anywhere (a JSON body, an SQLite integer), writers must look for it from now on.
    seenExact = true;
  }
  toString(): string {
    return this.text;
  }
  valueOf(): number {
    return Number(this.text);
  }
  /** Under stringifyExact() a marker the writer swaps for the digits; elsewhere the nearest number. */
  toJSON(): string | number {
    return exactMarks ? `${MARK}${this.text}` : Number(this.text);
  }
}

// A marker no server string will hold by chance: random per process.
const MARK = `\u0000mtg-exact-${Math.random().toString(36).slice(2, 12)}:`;
const MARK_IN_JSON = `"${JSON.stringify(MARK).slice(1, -1)}`;
const MARK_RE = new RegExp(`${MARK_IN_JSON.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(-?\\d+)"`, 'g');
let exactMarks = false;
/** Set once any ExactInteger was made: until then writers take plain JSON.stringify. */
let seenExact = false;

const LONG_DIGITS = /\d{16}/;

/** JSON.parse, except that integer literals beyond 2^53 become ExactInteger. */
export function parseJsonExact(text: string): unknown {
  // Fast path: every integer of up to 15 digits is safe, so without a run of 16 digits there is
  // nothing to keep (the usual body: this test is one regex pass, no allocation).
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  const marked = markUnsafeIntegers(text);
  if (marked === text) return JSON.parse(text);
  seenExact = true;
  // A walk after the parse: several times faster than a JSON.parse reviver.
  return revive(JSON.parse(marked));
}

function revive(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.startsWith(MARK) ? new ExactInteger(value.slice(MARK.length)) : value;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i]);
  } else if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const key in o) {
      const before = o[key];
      const after = revive(before);
      // defineProperty: a plain assignment to a "__proto__" key would set the prototype.
      if (after !== before)
        Object.defineProperty(o, key, { value: after, writable: true, enumerable: true, configurable: true });
    }
  }
  return value;
}

/** Where the JSON string opened by the quote at `open` ends (its closing quote, or the text's length), escapes skipped. */
export function jsonStringEnd(text: string, open: number): number {
  const n = text.length;
  let i = open + 1;
  for (; i < n; i++) {
    const d = text.charCodeAt(i);
    if (d === 0x5c) i++;
    else if (d === 0x22) break;
  }
  return i;
}

/** The text with each unsafe integer literal (outside strings) replaced by a marked string. */
function markUnsafeIntegers(text: string): string {
  let out = '';
  let copied = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = jsonStringEnd(text, i);
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < n && isNumberChar(text.charCodeAt(j))) j++;
      const token = text.slice(i, j);
      if (/^-?\d{16,}$/.test(token) && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(copied, i)}"${JSON.stringify(MARK).slice(1, -1)}${token}"`;
        copied = j;
      }
      i = j - 1;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function isNumberChar(c: number): boolean {
  // digits . e E + -
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/**
 * JSON.stringify that writes ExactInteger values as their digits, and C1 controls as escapes:
 * the JSON mtg prints or sends (json/ndjson output, `mtg api`, request bodies).
 */
export function stringifyExact(value: unknown, indent?: number): string | undefined {
  return escapeC1(stringifyExactRaw(value, indent));
}

/**
 * JSON.stringify that writes ExactInteger values as their digits, every string as JSON.stringify
 * writes it (C1 raw): the mirror's json columns, which keep the text as the API sent it. Not for
 * output: printed JSON goes through stringifyExact.
 */
export function stringifyExactRaw(value: unknown, indent?: number): string | undefined {
  if (!seenExact) return JSON.stringify(value, null, indent);
  exactMarks = true;
  try {
    const text = JSON.stringify(value, null, indent);
    return text === undefined ? text : text.replace(MARK_RE, '$1');
  } finally {
    exactMarks = false;
  }
}

// JSON.stringify escapes C0 controls but writes C1 (U+0080-U+009F) raw, as JSON allows: an 8-bit
// OSC 52 (U+009D) in a server string would then reach a terminal that shows the JSON and honours
// it (a clipboard write). Outside strings JSON.stringify writes only ASCII, so every C1 character
// of its text is inside a string, where \u0080-\u009f is the same value for every parser.
const C1 = /[\u0080-\u009f]/;
const C1_ALL = /[\u0080-\u009f]/g;
const C1_ESCAPE = (c: string) => `\\u00${c.charCodeAt(0).toString(16)}`;

/**
 * JSON text (or YAML whose C1 controls are all in double-quoted strings) with each C1 control
 * written as its \u escape: the same value; undefined stays.
 */
export function escapeC1<T extends string | undefined>(text: T): T {
  return (text !== undefined && C1.test(text) ? text.replace(C1_ALL, C1_ESCAPE) : text) as T;
}

/** An SQLite integer read as BigInt: a plain number when it is safe, else its exact digits. */
export function fromBigInt(value: bigint): number | ExactInteger {
  return value >= -MAX_SAFE && value <= MAX_SAFE ? Number(value) : new ExactInteger(value.toString());
}
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function isExactInteger(value: unknown): value is ExactInteger {
  return value instanceof ExactInteger;
}
