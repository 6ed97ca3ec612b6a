// The resource mtg://meetings/{id} within the bound of every result: a meeting whose Markdown passes
// it keeps its front matter, action items and insights, and its notes are cut at a line, with a line
// saying how to read the rest (the sql tool, in pieces of the stored JSON, each within the bound).

import { safePrefix } from '../shared/clip.js';
import { ITEMS_BOUND, jsonCost } from './paging.js';

/** Characters of the meeting's JSON per sql piece: escaped (every character a \uXXXX at worst) within the bound. */
const PIECE = 15_000;

/** How to read a meeting's stored JSON whole, in pieces the sql tool can send. */
export function meetingInPieces(id: string): string {
  const q = id.replaceAll("'", "''");
  return `with the sql tool in pieces: SELECT length(json) AS chars, substr(json, 1, ${PIECE}) AS piece FROM meetings WHERE id = '${q}', then substr(json, ${PIECE + 1}, ${PIECE}), and so on up to chars`;
}

/** The longest prefix of `text` (never half a surrogate pair) that costs at most `room`. */
function longestPrefixWithin(text: string, room: number): string {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonCost(text.slice(0, mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  return safePrefix(text, lo);
}

/** `markdown` whole, or its longest prefix ending at a line that fits the bound, and a last line saying so. */
export function boundedMarkdown(markdown: string, id: string): string {
  if (jsonCost(markdown) <= ITEMS_BOUND) return markdown;
  const marker = `\n[shortened: this meeting's Markdown is ${markdown.length.toLocaleString('en')} characters, more than one answer holds; read the meeting whole ${meetingInPieces(id)}]\n`;
  const fits = longestPrefixWithin(markdown, ITEMS_BOUND - jsonCost(marker));
  const lineEnd = fits.lastIndexOf('\n');
  // One line longer than the bound: cut inside it.
  const kept = lineEnd > 0 ? fits.slice(0, lineEnd + 1) : `${fits}\n`;
  return `${kept}${marker}`;
}

/**
 * A meeting's Markdown within the bound: whole when it fits; else rendered again with its notes cut
 * at a line and a line saying how to read the rest, so that the front matter, action items and
 * insights stay; else (they alone pass the bound) cut as boundedMarkdown does.
 */
export async function boundedMeetingMarkdown(
  id: string,
  meeting: Record<string, unknown>,
  render: (meeting: Record<string, unknown>) => Promise<string>,
): Promise<string> {
  const whole = await render(meeting);
  if (jsonCost(whole) <= ITEMS_BOUND) return whole;
  const notes = typeof meeting.notes === 'string' ? meeting.notes : '';
  if (notes !== '') {
    const marker = (kept: number) =>
      `\n\n[notes shortened: the first ${kept.toLocaleString('en')} of ${notes.length.toLocaleString('en')} characters; the rest is $.notes of the meeting's stored JSON, to read ${meetingInPieces(id)}]`;
    const rest = jsonCost(await render({ ...meeting, notes: marker(notes.length) }));
    let room = ITEMS_BOUND - rest;
    // The cost of a text inside the page differs a little from its own (escapes, line joins):
    // shrink until the page fits, a few rounds at most.
    for (let round = 0; round < 8 && room > 0; round++) {
      const fits = longestPrefixWithin(notes, room);
      const lineEnd = fits.lastIndexOf('\n');
      const kept = lineEnd > 0 ? fits.slice(0, lineEnd) : fits;
      const page = await render({ ...meeting, notes: `${kept}${marker(kept.length)}` });
      const over = jsonCost(page) - ITEMS_BOUND;
      if (over <= 0) return page;
      room -= over + 50;
    }
  }
  return boundedMarkdown(whole, id);
}
