// Tokens as real tokenizers count them: the larger of cl100k's and o200k's counts, with js-tiktoken's
// ranks and split pattern. js-tiktoken's own encode is slow for a test: its constructor turns every
// rank into a string of bytes joined by commas (5-7 s a table on a loaded machine), and it merges
// each piece by rescanning every pair as such a string per merge, quadratic in a piece's length (3 s
// for a run of 3,000 punctuation marks), for every copy of a piece (a second a page of 20,000 tokens
// of Chinese). This keys the ranks by their base64 text as the tables give it, merges in the same
// order keeping each pair's rank between merges, and remembers each piece's count.
// test/mcp/tokens.test.ts checks it against js-tiktoken's encode.
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';

interface Encoding {
  pattern: RegExp;
  /** Rank by the token's bytes in base64. */
  ranks: Map<string, number>;
  specials: string[];
  /** Tokens by piece, for pieces counted before. */
  counted: Map<string, number>;
}

const TABLES = [cl100k, o200k];
let encodings: Encoding[] | undefined;
let tiktokens: Tiktoken[] | undefined;

/** js-tiktoken's tokenizers themselves (seconds to build), to check realTokens against. */
export function tokenizers(): Tiktoken[] {
  tiktokens ??= TABLES.map((table) => new Tiktoken(table));
  return tiktokens;
}

function loaded(): Encoding[] {
  encodings ??= TABLES.map((table) => ({
    pattern: new RegExp(table.pat_str, 'gu'),
    ranks: ranksOf(table),
    specials: Object.keys(table.special_tokens),
    counted: new Map(),
  }));
  return encodings;
}

/** A table's lines are "<any> <rank of the first> <token> <token> …", each token in base64. */
function ranksOf(table: TiktokenBPE): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const line of table.bpe_ranks.split('\n')) {
    const fields = line.split(' ');
    const first = Number.parseInt(fields[1] ?? '', 10);
    for (let i = 2; i < fields.length; i++) ranks.set(fields[i]!, first + i - 2);
  }
  return ranks;
}

/** What the larger of cl100k and o200k counts in `text`. */
export function realTokens(text: string): number {
  return Math.max(...loaded().map((e) => countTokens(e, text)));
}

function countTokens(e: Encoding, text: string): number {
  // js-tiktoken's encode() refuses special tokens (<|endoftext|> and the like) in the text.
  const special = e.specials.find((token) => text.includes(token));
  if (special) throw new Error(`realTokens: the text contains the special token ${special}`);
  let total = 0;
  for (const [piece] of text.matchAll(e.pattern)) {
    let n = e.counted.get(piece);
    if (n === undefined) {
      n = pieceTokens(Buffer.from(piece), e.ranks);
      e.counted.set(piece, n);
    }
    total += n;
  }
  return total;
}

/**
 * js-tiktoken's bytePairMerge, counted: merge the adjacent pair of lowest rank (the first of equal
 * ones) until no pair has a rank. Only the two pairs beside a merge change, so only they are ranked again.
 */
function pieceTokens(bytes: Buffer, ranks: Map<string, number>): number {
  if (bytes.length === 1 || ranks.has(bytes.toString('base64'))) return 1;
  // starts[i]: where part i begins; a part ends where the next begins (the last at bytes.length).
  const starts = Array.from(bytes.keys());
  const end = (i: number) => (i < starts.length ? starts[i]! : bytes.length);
  const rankOf = (i: number) =>
    i + 1 < starts.length
      ? (ranks.get(bytes.subarray(starts[i]!, end(i + 2)).toString('base64')) ?? Infinity)
      : Infinity;
  const pairRanks = starts.map((_, i) => rankOf(i));
  while (starts.length > 1) {
    let best = -1;
    for (let i = 0; i < pairRanks.length; i++)
      if (pairRanks[i]! < Infinity && (best < 0 || pairRanks[i]! < pairRanks[best]!)) best = i;
    if (best < 0) break;
    starts.splice(best + 1, 1);
    pairRanks.splice(best + 1, 1);
    pairRanks[best] = rankOf(best);
    if (best > 0) pairRanks[best - 1] = rankOf(best - 1);
  }
  return starts.length;
}
