// The resource mtg://meetings/{id} within the size bound of every result: a meeting's Markdown
// longer than that is cut at a line and ends with a line saying so, and how to read the meeting
// whole: the sql tool, in pieces of the stored JSON (each piece within the bound too).

import { ITEMS_BOUND, jsonLength, safePrefix } from './paging.js';

/** Characters of the meeting's JSON per sql piece: escaped (every character a \uXXXX at worst) within the bound. */
const PIECE = 15_000;

/** How to read a meeting's stored JSON whole, in pieces the sql tool can send. */
export function meetingInPieces(id: string): string {
  const q = id.replaceAll("'", "''");
  return `with the sql tool in pieces: SELECT length(json) AS chars, substr(json, 1, ${PIECE}) AS piece FROM meetings WHERE id = '${q}', then substr(json, ${PIECE + 1}, ${PIECE}), and so on up to chars`;
}

/** `markdown` whole, or its longest prefix ending at a line that fits the bound, and a last line saying so. */
export function boundedMarkdown(markdown: string, id: string): string {
  if (jsonLength(markdown) <= ITEMS_BOUND) return markdown;
  const marker = `\n[shortened: this meeting's Markdown is ${markdown.length.toLocaleString('en')} characters, more than one answer holds; read the meeting whole ${meetingInPieces(id)}]\n`;
  const room = ITEMS_BOUND - jsonLength(marker);
  // The longest prefix within the room (JSON escaping counts), then back to the end of a line.
  let lo = 0;
  let hi = markdown.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonLength(markdown.slice(0, mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  const fits = safePrefix(markdown, lo);
  const lineEnd = fits.lastIndexOf('\n');
  // One line longer than the bound: cut inside it.
  const kept = lineEnd > 0 ? fits.slice(0, lineEnd + 1) : `${fits}\n`;
  return `${kept}${marker}`;
}
