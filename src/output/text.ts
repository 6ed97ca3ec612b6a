// Small text helpers shared by the table writer and progress messages.

let countFormat: Intl.NumberFormat | undefined;

/** 1250 -> "1,250" (fixed locale so progress text is stable in logs and tests). */
export function humanCount(n: number): string {
  // Whole numbers (every count) are grouped by hand: constructing an Intl.NumberFormat loads ICU
  // data, about 10 ms, which every list command paid at start (bench figure b). Same text as en-US.
  if (Number.isSafeInteger(n)) return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
  countFormat ??= new Intl.NumberFormat('en-US');
  return countFormat.format(n);
}

/**
 * Cuts `s` to at most `width` code points, ending with "…" when something was cut.
 * Counts code points, not display cells: wide CJK/emoji may overshoot a little, which
 * cli-table3 (it measures real widths) absorbs by widening the column.
 */
export function truncate(s: string, width: number): string {
  if (width <= 0) return '';
  if (s.length <= width) return s; // fast path: UTF-16 length >= code points
  const cps = Array.from(s);
  if (cps.length <= width) return s;
  return cps.slice(0, width - 1).join('') + '…';
}

/** Length in code points (what truncate() counts). */
export function textWidth(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
