// An upper estimate of the tokens a text costs an assistant, for every script, without loading a
// tokenizer: byte-pair tokenizers give an English word about one token, a number one per three
// digits, a Chinese character one to two, an emoji two to four. Results are bounded by this
// estimate (the contract: no text block over 20,000 tokens, under common clients' 25,000 cap);
// test/mcp/tokens.test.ts holds it against real tokenizers.

/**
 * Tokens an ASCII letter run costs: a word of up to six letters is one, up to twelve two; a longer
 * run is no word (an ID, base64, a hash) and costs about three per five letters.
 */
const letterRun = (n: number) => (n <= 6 ? 1 : n <= 12 ? 2 : Math.ceil((n * 3) / 5));

/** The estimated tokens of `text`, at least what cl100k and o200k give it. */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (isAlnum(c)) {
        let j = i + 1;
        while (j < n && isAlnum(text.charCodeAt(j))) j++;
        tokens += alnumRun(text, i, j);
        i = j;
      } else if (c === 0x5c && text.charCodeAt(i + 1) === 0x75) {
        // A JSON escape (\u009d): byte-pair tokenizers split it into about six tokens.
        tokens += 6;
        i += 6;
      } else if (c === 0x20) {
        // A space joins the word after it; a run of spaces costs about one token per four. Before
        // a letter tokenizers do not merge (twoByte's two), the space is a token of its own.
        let j = i + 1;
        while (j < n && text.charCodeAt(j) === 0x20) j++;
        const next = text.charCodeAt(j);
        tokens +=
          Math.floor((j - i - 1 + 3) / 4) + (next >= 0x80 && next < 0x800 && twoByte(next) === 2 ? 1 : 0);
        i = j;
      } else {
        // Punctuation, newlines, other controls: one each at most.
        tokens += 1;
        i++;
      }
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      // Outside the BMP (emoji, rare CJK): up to four bytes, each a token at worst.
      tokens += 4;
      i += 2;
    } else if (isWide(c)) {
      // CJK, kana, hangul, and their punctuation: about 1.1 a character in cl100k, 1.5 to be safe.
      tokens += 1.5;
      i++;
    } else {
      // Other letters and symbols: two bytes or three (twoByte).
      tokens += c < 0x800 ? twoByte(c) : 3;
      i++;
    }
  }
  return Math.ceil(tokens);
}

/**
 * A character of two UTF-8 bytes: one token or two. Byte-pair tokenizers merge the Russian
 * alphabet's letters (even in random order) to about one a character; Latin-1's letters, Greek,
 * Hebrew and Arabic letters to 1.2-1.6; everything else of two bytes (Armenian, combining marks
 * stacked on a letter, IPA, Latin Extended, C1 controls, NKo…) is about a token a byte, two a
 * character, natural text as much as random: counted one, an Armenian transcript page went out at
 * twice the bound.
 */
function twoByte(c: number): number {
  if ((c >= 0x410 && c <= 0x44f) || c === 0x401 || c === 0x451) return 1;
  if (
    (c >= 0xa0 && c <= 0xff) ||
    (c >= 0x386 && c <= 0x3ce) ||
    (c >= 0x5d0 && c <= 0x5ea) ||
    (c >= 0x621 && c <= 0x64a)
  )
    return 1.6;
  return 2;
}

const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isAlnum = (c: number) => isUpper(c) || isDigit(c) || (c >= 0x61 && c <= 0x7a);

/**
 * A run of ASCII letters and digits from `i` to `j`: a number costs one token per three digits; a
 * word, or a camelCase name of up to three words, one or two per word; anything else (an ID,
 * base64, a hash: digits among letters, or case switching often) about three per four characters.
 */
function alnumRun(text: string, i: number, j: number): number {
  let digits = 0;
  let parts = 1;
  let partStart = i;
  let words = 0;
  for (let k = i; k < j; k++) {
    const c = text.charCodeAt(k);
    if (isDigit(c)) digits++;
    else if (k > i && isUpper(c) && !isUpper(text.charCodeAt(k - 1))) {
      parts++;
      words += letterRun(k - partStart);
      partStart = k;
    }
  }
  const n = j - i;
  if (digits === n) return Math.ceil(n / 3);
  if (digits === 0 && parts <= 3) return words + letterRun(j - partStart);
  return Math.ceil((n * 3) / 4);
}
const isWide = (c: number) =>
  (c >= 0x1100 && c <= 0x11ff) ||
  (c >= 0x2e80 && c <= 0x9fff) ||
  (c >= 0xa960 && c <= 0xa97f) ||
  (c >= 0xac00 && c <= 0xd7ff) ||
  (c >= 0xf900 && c <= 0xfaff) ||
  (c >= 0xfe30 && c <= 0xfe4f) ||
  (c >= 0xff00 && c <= 0xffef);

/** The estimated tokens of `value` as the JSON text block a tool returns. */
export function jsonTokens(value: unknown): number {
  const json = JSON.stringify(value);
  return json === undefined ? 0 : estimateTokens(json);
}
