// Text written without spaces between words (Chinese, Japanese; Korean words carry particles) as
// FTS5's unicode61 tokenizer sees it: a whole run of such characters is one token, so `季度` could
// not find "2025年第三季度回顾会议". Each of these characters is made a token of its own, the same
// way at index time (passages.ts) and at query time (search.ts: a run in the query becomes a phrase
// of its characters), so any run of characters of the text is found as a phrase, with unicode61
// and everything else about the index unchanged. Unigrams rather than bigrams (Lucene's CJK
// analyzer): the snippet is made from the text itself (search.ts), which must not hold a character
// twice, and a phrase of unigrams matches exactly the runs that a phrase of bigrams matches.

/**
 * Letters of the Han (with 々 〇), Hiragana, Katakana and Hangul scripts, and the two letters of
 * Common script written inside Japanese words: the long vowel mark ー and its half-width form.
 * Script, not Script_Extensions: that would take in shared punctuation such as "·" (Latin, Greek…).
 */
const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u30fc\uff70]/u;
const CJK_ALL = new RegExp(CJK.source, 'gu');

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/**
 * `text` with `separator` on both sides of each CJK character (a space in the index and in queries;
 * a private character in the snippet table, removed again from the snippet). Other text unchanged.
 */
export function segmentCjk(text: string, separator = ' '): string {
  if (!CJK.test(text)) return text;
  return text.replace(CJK_ALL, (c) => `${separator}${c}${separator}`);
}
