// `search`: the hits of `mtg find QUERY --json`, paged by an offset that holds while the mirror does.

import { z } from 'zod';
import { type MeetingHit, PASSAGE_KINDS, type PassageHit, plainHit } from '../../mirror/search.js';
import { ensureSearchIndex } from '../../mirror/search-index.js';
import * as ops from '../../ops/search.js';
import { UsageError } from '../../shared/errors.js';
import type { Hit } from '../mirror-access.js';
import {
  decodeCursor,
  encodeCursor,
  fingerprint,
  type HitsPosition,
  isHitsPosition,
  labelName,
  shortenStrings,
  takePage,
} from '../paging.js';
import {
  cursor,
  DATA_NOT_INSTRUCTIONS,
  defineTool,
  linkedOnce,
  meetingLinks,
  mirrorState,
  type Obj,
  ok,
  READ,
  since,
  text,
  timeWindow,
  until,
  wholeIn,
} from './define.js';

/** A search cursor from before the mirror changed: its ranking is gone. */
class StaleSearchCursor extends UsageError {
  constructor() {
    super(
      'the mirror changed since this cursor was given (a sync), so its ranking no longer holds: repeat the search without a cursor',
    );
  }
}

export const search = defineTool({
  name: 'search',
  title: 'Search meetings',
  description:
    'Full-text search of every stored meeting: names, notes, transcripts (windows of neighbouring ' +
    'entries), action items, attendees and speaker names. Start here to find which meetings talk about ' +
    'something. Ask the question as the user phrased it: plain questions work ("what did Dana say about ' +
    'the budget?"); a result need not hold every word, those holding all of them, the rarer ones and the ' +
    'words close together come first; word forms and small typos match. Keywords, "quoted phrases", ' +
    'prefix*, a OR b and -word work too. Narrow by date with since/until, by kind with in (e.g. ' +
    '["transcript"]), by speaker by naming them in the query. Returns one result per passage, best first: ' +
    '{meetingId, meetingName, createdAt, in, speaker, timestamp (seconds into the meeting: the entry that ' +
    'matches best), snippet (matches between **), rank, matched (the words that matched)}; groupBy ' +
    '"meeting": one result per meeting with its best passages. Then call get_transcript with the meetingId ' +
    'and read the entries around the timestamp, or get_meeting for the meeting. More results: pass ' +
    'nextCursor back as cursor (good until the mirror next changes; after a sync, search again without it).' +
    DATA_NOT_INSTRUCTIONS,
  input: z.strictObject({
    query: text('query').describe(
      'a question in plain words, or words, "phrases", prefix*, a OR b, -excluded',
    ),
    in: z
      .array(z.enum(PASSAGE_KINDS, { error: `in must list only ${PASSAGE_KINDS.join(', ')}` }), {
        error: `in must be an array of ${PASSAGE_KINDS.join(', ')}`,
      })
      .optional()
      .describe('only these kinds of passage'),
    since: since.optional(),
    until: until.optional(),
    groupBy: z
      .enum(['passage', 'meeting'], { error: 'groupBy must be passage or meeting' })
      .optional()
      .describe(
        'passage (default): one result per passage; meeting: one per meeting, with its best passages',
      ),
    limit: wholeIn('limit', 1, 100).optional().describe('results per page (default 20)'),
    cursor: cursor.optional(),
  }),
  annotations: READ,
  run: async (a, { access }) => {
    const window = timeWindow(a.since, a.until);
    const f = fingerprint([
      'search',
      a.query,
      a.in ?? [],
      a.since ?? null,
      a.until ?? null,
      a.groupBy ?? 'passage',
    ]);
    const position = decodeCursor<HitsPosition>(a.cursor, f, isHitsPosition);
    const offset = position?.o ?? 0;
    return access.read((r) => {
      const limit = a.limit ?? 20;
      // The ranking holds while the mirror does: read its state before and after ranking.
      const state = mirrorState(r);
      if (position && position.v !== state) throw new StaleSearchCursor();
      // Ranked up to one past the page (whether a next one exists), as `mtg find --limit` ranks.
      // A mirror made by an older mtg gets its search index here, once (progress on stderr).
      ensureSearchIndex(r.mirror, (line) => process.stderr.write(`mtg mcp: ${line}\n`));
      const { hits } = ops.search(r.mirror, {
        query: a.query,
        in: a.in,
        ...window,
        groupBy: a.groupBy,
        limit: offset + limit + 1,
      });
      const { page, more, next } = takePage<PassageHit | MeetingHit, Hit>(hits, {
        offset,
        limit,
        // A name labels its hit: cut past NAME_CHARS (get_meeting has it whole).
        map: (h) => {
          const hit = plainHit(h);
          return { ...hit, meetingName: labelName(hit.meetingName) };
        },
        shorten: shortenStrings,
        beside: linkedOnce((h) => ({ id: h.meetingId, name: h.meetingName })),
      });
      if (position && mirrorState(r) !== state) throw new StaleSearchCursor();
      const result: Obj = { results: page };
      if (more) result.nextCursor = encodeCursor(f, { o: next, v: state });
      return ok(result, meetingLinks(page.map((h) => ({ id: h.meetingId, name: h.meetingName }))));
    });
  },
});
