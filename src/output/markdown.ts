// Meeting notes are Markdown; this renders the common subset readably in a terminal: headings bold
// (and underlined up to level 2), bullets, numbered lists, quotes, code, links, emphasis, rules.
// With color off the markers are dropped and clean text remains. Input is sanitized first, so no
// server-sent escape sequence survives; the only escapes in the output are our own SGR styles.
import type { ChalkInstance } from 'chalk';
import { appendAll } from '../shared/append.js';
import { hasCjk } from '../shared/cjk.js';
import { sanitizeForTerminal } from '../shared/sanitize.js';
import { createChalk } from './color.js';
import { visibleWidth } from './text.js';

export { visibleWidth };

export interface MarkdownOptions {
  color: boolean;
  /** Wrap paragraphs and list items at this many columns (including `indent`); 0 = no wrapping. */
  width?: number;
  /** Prefix of every output line (e.g. two spaces under a section heading). */
  indent?: string;
}

const BULLETS = ['•', '◦', '▪'];
const RULE_WIDTH = 40;

// ---- inline ------------------------------------------------------------------------------------

// Left to right, first match wins: escapes, code spans, images, links, autolinks, strong, strike, em.
const INLINE =
  /\\([!-/:-@[-`{-~])|(`+)([^`]|[^`][\s\S]*?[^`])\2(?!`)|!\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<((?:https?|mailto):[^>\s]+)>|\*\*(?=\S)([\s\S]*?\S)\*\*|(?<![\w_])__(?=\S)([\s\S]*?\S)__(?![\w_])|~~(?=\S)([\s\S]*?\S)~~|\*(?=[^\s*])([\s\S]*?[^\s*])\*|(?<![\w_])_(?=[^\s_])([\s\S]*?[^\s_])_(?![\w_])/g;

/** Inline Markdown of one block's text to styled (or plain) text. */
export function renderInline(text: string, c: ChalkInstance): string {
  return text.replace(
    INLINE,
    (
      _m,
      escaped?: string,
      _ticks?: string,
      code?: string,
      imageAlt?: string,
      imageUrl?: string,
      linkText?: string,
      linkUrl?: string,
      autolink?: string,
      strong?: string,
      strong2?: string,
      strike?: string,
      em?: string,
      em2?: string,
    ) => {
      if (escaped !== undefined) return escaped;
      if (code !== undefined)
        return c.cyan(code.length > 2 && /^ .* $/.test(code) ? code.slice(1, -1) : code);
      if (imageUrl !== undefined) return `${c.dim('[image')} ${renderInline(imageAlt ?? '', c)}${c.dim(']')}`;
      if (linkUrl !== undefined) {
        const label = renderInline(linkText ?? '', c);
        return linkText === linkUrl ? c.underline(label) : `${c.underline(label)} ${c.dim(`(${linkUrl})`)}`;
      }
      if (autolink !== undefined) return c.underline(autolink);
      if (strong !== undefined || strong2 !== undefined) return c.bold(renderInline(strong ?? strong2!, c));
      if (strike !== undefined) return c.strikethrough(renderInline(strike, c));
      return c.italic(renderInline(em ?? em2 ?? '', c));
    },
  );
}

// ---- wrapping ----------------------------------------------------------------------------------

/**
 * Word-wraps styled text to `width` columns: the first line starts with `first`, the others with
 * `rest` (a hanging indent, so list items and quotes keep their shape). Words longer than a line
 * stay whole rather than being cut (a link stays one piece to copy), except that text written
 * without spaces (CJK) breaks between any two of its characters.
 */
export function wrap(text: string, width: number, first: string, rest: string): string[] {
  const words = text.split(/ +/).filter((w) => w !== '');
  if (width <= 0 || words.length === 0) return [(first + text).trimEnd()];
  const lines: string[] = [];
  let line = first;
  let lineWidth = visibleWidth(first);
  let empty = true;
  for (const word of words) {
    // Pieces of one word are joined without a space: a line may end after any of them.
    cjkPieces(word).forEach((piece, i) => {
      const w = visibleWidth(piece);
      let gap = empty || i > 0 ? 0 : 1;
      if (!empty && lineWidth + gap + w > width) {
        lines.push(line);
        line = rest;
        lineWidth = visibleWidth(rest);
        empty = true;
        gap = 0;
      }
      line += (gap ? ' ' : '') + piece;
      lineWidth += gap + w;
      empty = false;
    });
  }
  lines.push(line);
  return lines;
}

/** Our own SGR styles inside a word, or one code point. */
const STYLE_OR_CHAR = /\u001b\[[0-9;]*m|[\s\S]/gu;

/**
 * A word cut between each two CJK characters (styles stay with the character they precede), or
 * [word] when it holds none: such text has no spaces, and may break between any two characters.
 */
function cjkPieces(word: string): string[] {
  if (!hasCjk(word)) return [word];
  const pieces: string[] = [];
  let piece = '';
  let previousCjk = false;
  for (const [part] of word.matchAll(STYLE_OR_CHAR)) {
    if (part.length > 1 && part.startsWith('\u001b')) {
      piece += part;
      continue;
    }
    const cjk = hasCjk(part);
    if (cjk && previousCjk && visibleWidth(piece) > 0) {
      // Styles opened just before this character go with it.
      const trailing = /(?:\u001b\[[0-9;]*m)+$/.exec(piece)?.[0] ?? '';
      pieces.push(piece.slice(0, piece.length - trailing.length));
      piece = trailing;
    }
    piece += part;
    previousCjk = cjk;
  }
  pieces.push(piece);
  return pieces;
}

// ---- blocks ------------------------------------------------------------------------------------

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const BULLET_ITEM = /^(\s*)[-*+]\s+(.*)$/;
const ORDERED_ITEM = /^(\s*)(\d{1,9})([.)])\s+(.*)$/;

/** Nesting level of a list item from its leading spaces (2 or more per level, tabs count 4). */
function level(spaces: string): number {
  return Math.floor(spaces.replace(/\t/g, '    ').length / 2);
}

/** Renders a Markdown document for a terminal; returns the lines joined with "\n" (no trailing newline). */
export function renderMarkdown(markdown: string, opts: MarkdownOptions): string {
  const c = createChalk(opts.color);
  const indent = opts.indent ?? '';
  const width = opts.width ?? 0;
  const out: string[] = [];
  let fence: string | undefined;
  const para = (text: string, first: string, rest: string): void => {
    appendAll(out, wrap(renderInline(text, c), width, indent + first, indent + rest));
  };

  for (const raw of sanitizeForTerminal(markdown).replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.replace(/\t/g, '    ');
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]![0] === fence[0] && fenceMatch[1]!.length >= fence.length) {
        fence = undefined;
      } else {
        out.push(`${indent}    ${c.cyan(line)}`.trimEnd());
      }
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      continue;
    }
    if (line.trim() === '') {
      out.push('');
      continue;
    }
    let m = HEADING.exec(line);
    if (m) {
      const text = renderInline(m[2]!, c);
      const depth = m[1]!.length;
      out.push(indent + (depth <= 2 ? c.bold.underline(text) : c.bold(text)));
      continue;
    }
    if (RULE.test(line)) {
      out.push(indent + c.dim('─'.repeat(RULE_WIDTH)));
      continue;
    }
    m = QUOTE.exec(line);
    if (m) {
      const bar = c.dim('│ ');
      para(m[1]!, bar, bar);
      continue;
    }
    m = BULLET_ITEM.exec(line);
    if (m) {
      const lvl = level(m[1]!);
      const pad = '  '.repeat(lvl);
      const bullet = BULLETS[lvl % BULLETS.length]!;
      para(m[2]!, `${pad}${bullet} `, `${pad}  `);
      continue;
    }
    m = ORDERED_ITEM.exec(line);
    if (m) {
      const pad = '  '.repeat(level(m[1]!));
      const number = `${m[2]}${m[3]} `;
      para(m[4]!, pad + number, pad + ' '.repeat(number.length));
      continue;
    }
    para(line.trim(), '', '');
  }
  return tidy(out);
}

/** No leading or trailing blank lines, no runs of blank lines. */
function tidy(lines: string[]): string {
  const kept: string[] = [];
  for (const line of lines) {
    const blank = line.trim() === '';
    if (blank && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
    kept.push(blank ? '' : line.trimEnd());
  }
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.join('\n');
}
