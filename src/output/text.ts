// Small text helpers shared by the table writer and progress messages.
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';

let countFormat: Intl.NumberFormat | undefined;

/** 1250 -> "1,250" (fixed locale so progress text is stable in logs and tests). */
export function humanCount(n: number): string {
  // Whole numbers (every count) are grouped by hand: constructing an Intl.NumberFormat loads ICU
  // data, about 10 ms, which every list command paid at start (bench figure b). Same text as en-US.
  if (Number.isSafeInteger(n)) return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
  countFormat ??= new Intl.NumberFormat('en-US');
  return countFormat.format(n);
}

/** A count with its noun: counted(1, 'meeting') -> "1 meeting", counted(1250, 'person', 'people') -> "1,250 people". */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${humanCount(n)} ${n === 1 ? one : many}`;
}

/**
 * Cuts `s` to at most `width` terminal columns, ending with "…" when something was cut. Wide
 * characters (CJK, emoji) count 2 columns, as the terminal shows them.
 */
export function truncate(s: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(s) <= width) return s;
  let out = '';
  let used = 0;
  for (const cp of s) {
    const w = textWidth(cp);
    if (used + w > width - 1) break;
    out += cp;
    used += w;
  }
  return out + '…';
}

/** The longest start of `s` that is at most `width` terminal columns (no "…": for callers that add their own). */
export function takeWidth(s: string, width: number): string {
  if (textWidth(s) <= width) return s;
  let out = '';
  let used = 0;
  for (const cp of s) {
    const w = textWidth(cp);
    if (used + w > width) break;
    out += cp;
    used += w;
  }
  return out;
}

/**
 * Pieces of one line (some styled, e.g. a highlighted match) cut to `width` columns, "…" last when
 * something was cut. `extra` is the width a piece's styling adds (the ** around a match without
 * color); a piece is cut inside its styling, so a highlight is never left half open.
 */
export function fitPieces<P extends { text: string }>(
  pieces: readonly P[],
  width: number,
  render: (piece: P, text: string) => string,
  extra: (piece: P) => number = () => 0,
): string {
  const total = pieces.reduce((n, p) => n + textWidth(p.text) + extra(p), 0);
  if (total <= width) return pieces.map((p) => render(p, p.text)).join('');
  let left = width - 1; // the "…"
  let out = '';
  for (const piece of pieces) {
    const w = textWidth(piece.text) + extra(piece);
    if (w <= left) {
      out += render(piece, piece.text);
      left -= w;
      continue;
    }
    const room = left - extra(piece);
    if (room > 0) out += render(piece, takeWidth(piece.text, room));
    break;
  }
  return `${out}…`;
}

/** Width in terminal columns (CJK and emoji are 2; escape sequences 0). */
export function textWidth(s: string): number {
  // Plain ASCII (the common case) is one column per character.
  return PRINTABLE_ASCII.test(s) ? s.length : stringWidth(s);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Display width of text with our own styling codes (chalk's SGR), stripped by node's own rule. */
export function visibleWidth(s: string): number {
  return textWidth(stripVTControlCharacters(s));
}

/** `s` padded with spaces to `width` terminal columns (String#padEnd counts UTF-16 units instead). */
export function padToWidth(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - visibleWidth(s)));
}

/** Seconds as people read them: "42s", "33m 16s", "1h 02m" (seconds dropped past an hour). */
export function humanDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

const WEEK_MS = 7 * 24 * 3600 * 1000;
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 24 * 3600 * 1000],
  ['hour', 3600 * 1000],
  ['minute', 60 * 1000],
];
const pad2 = (n: number) => String(n).padStart(2, '0');
const DAY_MS = 24 * 3600 * 1000;
const AGES: [string, number][] = [
  ['year', 365 * DAY_MS],
  ['month', 30 * DAY_MS],
  ['week', 7 * DAY_MS],
  ['day', DAY_MS],
  ['hour', 3600 * 1000],
  ['minute', 60 * 1000],
];

/**
 * The short form of a timestamp, for a table too narrow for "2025-06-01 13:11": relative at any
 * age ("3 weeks ago", "11 months ago"); a future one as its local date. Text that is no date comes
 * back unchanged.
 */
export function shortDate(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const ago = now - t;
  if (ago < 0) {
    const d = new Date(t);
    return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
  }
  for (const [unit, ms] of AGES) {
    const n = Math.floor(ago / ms);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/**
 * A timestamp as people read it, one rule everywhere (like gh): within the last 7 days relative
 * ("3 days ago", "5 minutes ago", "just now"), otherwise local date and time ("2025-06-01 13:11").
 * Text that is no date comes back unchanged.
 */
export function humanDate(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const ago = now - t;
  if (ago >= 0 && ago < WEEK_MS) {
    for (const [unit, ms] of UNITS) {
      const n = Math.floor(ago / ms);
      if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
    }
    return 'just now';
  }
  const d = new Date(t);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}
