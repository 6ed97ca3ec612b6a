// `get_transcript`: consecutive entries within maxChars a page; the pages join to the whole
// transcript, in order, no entry twice (an entry beyond the size bound comes in marked pieces).

import { z } from 'zod';
import { getTranscript as readTranscript } from '../../ops/meetings.js';
import { safePrefix } from '../../shared/clip.js';
import { UsageError } from '../../shared/errors.js';
import {
  decodeCursor,
  type EntryPosition,
  encodeCursor,
  fingerprint,
  ITEMS_BOUND,
  isEntryPosition,
  jsonCost,
  shortenStrings,
} from '../paging.js';
import { cursor, DATA_NOT_INSTRUCTIONS, defineTool, type Obj, ok, READ, text, wholeIn } from './define.js';

export const getTranscript = defineTool({
  name: 'get_transcript',
  title: 'Read a transcript',
  description:
    'What was said in a meeting, in order: {meetingId, total (entries in all), entries: [{speaker, text, ' +
    'timestamp (seconds into the meeting)}], nextCursor}. A page holds consecutive entries of at most ' +
    'maxChars characters of text (an entry longer than that comes alone); call again with nextCursor ' +
    'until there is none to read the rest. Use search to find the moment, get_meeting for the summary.' +
    DATA_NOT_INSTRUCTIONS,
  input: z.strictObject({
    id: text('id').describe('a meeting ID'),
    cursor: cursor.optional(),
    maxChars: wholeIn('maxChars', 1_000, 80_000)
      .optional()
      .describe('characters of text per page (default 40,000)'),
  }),
  annotations: READ,
  run: async (a, { access }) => {
    const f = fingerprint(['get_transcript', a.id]);
    const state = decodeCursor<EntryPosition>(a.cursor, f, isEntryPosition);
    const maxChars = a.maxChars ?? 40_000;
    return access.read(async (r) => {
      const entries = await readTranscript(r.mirror, a.id);
      const h = fingerprint(entries);
      if (state && state.h !== h)
        throw new UsageError(
          `the transcript of meeting ${a.id} changed since this cursor was given (a sync fetched it again): read it again without a cursor`,
        );
      let i = state?.o ?? 0;
      let c = state?.c ?? 0;
      const entryText = (e: unknown) => String((e as Obj).text ?? '');
      if (
        i > entries.length ||
        (i < entries.length && c > 0 && c >= entryText(entries[i]).length) ||
        (i === entries.length && c > 0)
      )
        throw new UsageError(
          'malformed cursor: it is not one this server gave for this transcript; start again without a cursor',
        );
      const page: Obj[] = [];
      let chars = 0;
      let used = 0;
      while (i < entries.length) {
        const e = entries[i] as Obj;
        const whole = entryText(e);
        const rest = c > 0 ? whole.slice(c) : whole;
        const { speaker, timestamp } = besideText(e);
        const out: Obj = { speaker, text: rest, timestamp };
        if (c > 0) out.continued = true;
        const size = jsonCost(out) + 1;
        if (page.length > 0 && (chars + rest.length > maxChars || used + size > ITEMS_BOUND)) break;
        if (size > ITEMS_BOUND) {
          // One entry beyond the size bound: sent in pieces, each marked, that join to its text.
          const piece = safePrefix(rest, longestFitting(out, rest));
          page.push({ ...out, text: piece, continues: true });
          c += piece.length;
          break;
        }
        page.push(out);
        chars += rest.length;
        used += size;
        i++;
        c = 0;
      }
      const result: Obj = { meetingId: a.id, total: entries.length, entries: page };
      if (i < entries.length) result.nextCursor = encodeCursor(f, c > 0 ? { o: i, c, h } : { o: i, h });
      return ok(result);
    });
  },
});

/** What an entry's speaker and timestamp may cost (server text: a name can be any length). */
const BESIDE_TEXT_ROOM = 1_000;

/**
 * An entry's speaker and timestamp, cut (marked) past BESIDE_TEXT_ROOM: an entry must fit a page
 * with some of its text; a speaker of 200,000 characters made every page of it 80,000 tokens.
 */
function besideText(e: Obj): Obj {
  const beside: Obj = { speaker: e.speaker ?? null, timestamp: e.timestamp ?? null };
  return jsonCost(beside) > BESIDE_TEXT_ROOM ? shortenStrings(beside, BESIDE_TEXT_ROOM) : beside;
}

/** The length of the longest prefix of `rest` that, as `out`'s text marked `continues`, fits the bound. */
function longestFitting(out: Obj, rest: string): number {
  let lo = 1;
  let hi = rest.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonCost({ ...out, text: rest.slice(0, mid), continues: true }) + 1 <= ITEMS_BOUND) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
