// The snippets of `mtg find` and the MCP server's search: made by FTS5's own snippet() over the hit
// passages' texts in a private in-memory table, clamped to a window a terminal line can show, and
// the marks around matches (private-use characters, random per process) turned into ** for data.

import { segmentCjk } from '../shared/cjk.js';
import type { Db, Statement } from './db.js';
import { openDb } from './driver.js';

/** Marks the snippet puts around matches: random per process, so no server text can fake one. */
const NONCE = Math.random().toString(36).slice(2, 10);
export const MATCH_START = `\uE000${NONCE}[`;
export const MATCH_END = `]${NONCE}\uE000`;

/**
 * Snippets made by FTS5 itself from the passages' texts (the mirror's index stores none; a hit's
 * text is passage i of meetingPassages() of the stored JSON, rowid = passage_base * 2^20 + i): the
 * texts go into an FTS5 table of a private in-memory database with the mirror's tokenizer, and
 * snippet() there marks the same query. snippet() reads only the row at hand (its tokens, the
 * query's matches in it, its length), so the result is what snippet() on the mirror's index gave
 * when the index stored the text: same words marked (case-, accent-insensitive, prefixes), same
 * window, same ellipses.
 */
export function snippetMaker(
  match: string,
): ((texts: readonly string[]) => { snippet: string; matched: string[] }[]) & { close(): void } {
  // CJK characters are tokens of their own in the index (cjk.ts): here the same split is made with
  // a private-use character declared a separator, which is then taken out of the snippet, so the
  // snippet shows the text as written. One that none of the texts holds (chosen again if one does);
  // when the texts hold every candidate (hostile text), plain spaces: the snippet of a CJK run then
  // shows a space around each character, and find still answers.
  let table: SnippetTable | undefined;
  const make = (texts: readonly string[]): { snippet: string; matched: string[] }[] => {
    if (!table || (table.separator !== undefined && texts.some((t) => t.includes(table!.separator!)))) {
      if (table && table !== kept) table.db.close();
      table = snippetTable(texts);
    }
    const { db, separator, put, index, get } = table;
    const out: { snippet: string; matched: string[] }[] = texts.map(() => ({ snippet: '', matched: [] }));
    // In a transaction rolled back once the snippets are read: FTS5 never writes the texts' index
    // out, and the table is empty again for the next texts without a DELETE.
    db.exec('BEGIN');
    try {
      put.run(
        JSON.stringify(texts.map((t) => segmentCjk(t.replace(/[\u0002\u0003]/g, ' '), separator ?? ' '))),
      );
      // With no free separator (hostile text) the space stands in: nearly every text holds one, so
      // texts are then highlighted whole and windowed by clampSnippet, as CJK texts are.
      const marker = separator ?? ' ';
      index.run();
      const rows = get.iterate(
        marker,
        MATCH_START,
        MATCH_END,
        MATCH_START,
        MATCH_END,
        MARK_OPEN,
        MARK_CLOSE,
        match,
      );
      for (const row of rows) {
        const snippet = String(row.snippet ?? '');
        // Highlighted whole (it holds the marker): a short window; snippet()'s own: only bounded.
        const whole = snippet.includes(marker);
        const text = separator === undefined ? snippet : snippet.split(separator).join('');
        out[row.rowid] = {
          snippet: whole ? clampSnippet(text, WHOLE_TEXT_WINDOW) : clampSnippet(text),
          matched: markedWords(String(row.marked ?? ''), separator),
        };
      }
    } finally {
      db.exec('ROLLBACK');
    }
    return out;
  };
  return Object.assign(make, {
    close: () => {
      if (table && table !== kept) table.db.close();
    },
  });
}

/** A private in-memory FTS5 table of hit texts, with a separator none of them holds (or none). */
interface SnippetTable {
  db: Db;
  separator: string | undefined;
  put: Statement;
  /** Indexes what `put` stored (FTS5's 'rebuild': its rows replaced by the texts'). */
  index: Statement;
  get: Statement<{ rowid: number; snippet: string | null; marked: string | null }>;
}

/**
 * The table of the last snippets made, kept for the process (opening a database and creating the
 * table cost more than the snippets of a search); its texts live in a plain table the FTS5 table
 * takes as its content, filled in a transaction that is rolled back (make()).
 */
let kept: SnippetTable | undefined;

function snippetTable(texts: readonly string[]): SnippetTable {
  if (kept?.separator !== undefined && !texts.some((t) => t.includes(kept!.separator!))) return kept;
  const separator = freeSeparator(texts);
  const db = openDb(':memory:');
  const separators = separator === undefined ? '' : ` separators '${separator}'`;
  db.exec(
    `CREATE TABLE hit_text(text);
     CREATE VIRTUAL TABLE hit USING fts5(text, content = 'hit_text', tokenize = "porter unicode61 remove_diacritics 2${separators}")`,
  );
  const table: SnippetTable = {
    db,
    separator,
    put: db.prepare('INSERT INTO hit_text(rowid, text) SELECT key, value FROM json_each(?)'),
    index: db.prepare("INSERT INTO hit(hit) VALUES ('rebuild')"),
    // snippet()'s window is 16 tokens from a sentence start that holds the match's first token:
    // 16 characters of CJK text, a phrase (every CJK query) cut after its first characters. A
    // text holding the separator (CJK) is highlighted whole instead; clampSnippet windows it.
    get: db.prepare(
      `SELECT rowid, CASE WHEN instr(text, ?) > 0 THEN highlight(hit, 0, ?, ?)
         ELSE snippet(hit, 0, ?, ?, '…', 24) END AS snippet,
         highlight(hit, 0, ?, ?) AS marked FROM hit WHERE hit MATCH ?`,
    ),
  };
  // Hostile texts (no separator free) get a table of their own: the next texts get one again.
  if (separator !== undefined) {
    kept?.db.close();
    kept = table;
  }
  return table;
}

/** Marks around the matches of the whole text (the words that matched): control characters, as
 * the text's own are taken out first. */
const MARK_OPEN = '\u0002';
const MARK_CLOSE = '\u0003';

/** The distinct words between the marks, lowercased, separators taken out (at most 20). */
function markedWords(marked: string, separator: string | undefined): string[] {
  const words = new Set<string>();
  let at = marked.indexOf(MARK_OPEN);
  while (at >= 0 && words.size < 20) {
    const end = marked.indexOf(MARK_CLOSE, at + 1);
    if (end < 0) break;
    let word = marked.slice(at + 1, end);
    if (separator !== undefined) word = word.split(separator).join('');
    word = word
      .replace(/[\u0002\u0003]/g, '')
      .trim()
      .toLowerCase();
    if (word) words.add(word);
    at = marked.indexOf(MARK_OPEN, end + 1);
  }
  return [...words];
}

/** Private-use code points a snippet table may declare a separator, tried in this order. */
const SEPARATOR_RANGES = [
  [0xe100, 0xf7ff],
  [0xf0000, 0xffffd],
  [0x100000, 0x10fffd],
] as const;
const PRIVATE_USE = /[\uE000-\uF8FF\u{F0000}-\u{10FFFD}]/gu;

/**
 * The first private-use character that none of `texts` holds, or undefined when they hold every
 * one: one pass over the texts and at most one over the candidates (bounded, whatever the text).
 */
export function freeSeparator(texts: readonly string[]): string | undefined {
  const used = new Set<number>();
  for (const text of texts) for (const [c] of text.matchAll(PRIVATE_USE)) used.add(c.codePointAt(0)!);
  for (const [from, to] of SEPARATOR_RANGES)
    for (let code = from; code <= to; code++) if (!used.has(code)) return String.fromCodePoint(code);
  return undefined;
}

/** Characters a snippet keeps at most (matches' marks and ellipses aside). */
export const SNIPPET_MAX = 300;
/** Of those, how many come before the first match when the snippet has to be cut. */
const SNIPPET_BEFORE = 80;
/**
 * The window of a text highlighted whole (CJK): about what snippet()'s 16 tokens show of spaced
 * text, with the match near its start, so that a table that cuts the snippet still shows the match.
 */
const WHOLE_TEXT_WINDOW = { max: 96, before: 16 };

/**
 * A snippet is at most SNIPPET_MAX characters of text around its first match. snippet() counts
 * tokens (16), and one token can be a whole passage (a base64 blob, a log line of 85,000
 * characters): such a snippet is cut to a window, "…" where text was left out, a match cut by the
 * window closed at its edge. Cuts never split a surrogate pair.
 */
export function clampSnippet(
  snippet: string,
  { max, before }: { max: number; before: number } = { max: SNIPPET_MAX, before: SNIPPET_BEFORE },
): string {
  // [text, marked] pieces; the marks themselves never count as text.
  const pieces: [string, boolean][] = [];
  let rest = snippet;
  let total = 0;
  while (rest !== '') {
    const open = rest.indexOf(MATCH_START);
    const plainEnd = open < 0 ? rest.length : open;
    if (plainEnd > 0) pieces.push([rest.slice(0, plainEnd), false]);
    if (open < 0) break;
    rest = rest.slice(open + MATCH_START.length);
    const close = rest.indexOf(MATCH_END);
    const markedEnd = close < 0 ? rest.length : close;
    pieces.push([rest.slice(0, markedEnd), true]);
    rest = close < 0 ? '' : rest.slice(close + MATCH_END.length);
  }
  for (const [text] of pieces) total += text.length;
  if (total <= max) return snippet;
  const text = pieces.map(([t]) => t).join('');
  let firstMatch = 0;
  for (const [t, marked] of pieces) {
    if (marked) break;
    firstMatch += t.length;
  }
  let start = Math.max(0, Math.min(firstMatch - before, total - max));
  let end = Math.min(total, start + max);
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  if (end < total && isLowSurrogate(text.charCodeAt(end))) end--;
  let out = start > 0 && !text.slice(0, start).endsWith('…') ? '…' : '';
  let at = 0;
  for (const [t, marked] of pieces) {
    const from = Math.max(start, at);
    const to = Math.min(end, at + t.length);
    at += t.length;
    if (from >= to) continue;
    const part = t.slice(from - (at - t.length), to - (at - t.length));
    out += marked ? `${MATCH_START}${part}${MATCH_END}` : part;
  }
  if (end < total && !out.endsWith('…')) out += '…';
  return out;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Matches between ** in data formats (the private-use marks of the snippet never leave mtg). */
export function plainSnippet(snippet: string): string {
  return snippet.split(MATCH_START).join('**').split(MATCH_END).join('**');
}
