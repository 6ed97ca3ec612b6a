// mtg find, as data: full-text search of the local mirror, one result per matching passage.

import { LOCAL_LIMIT_OPTIONS, MIRROR_OPTIONS, OUTPUT_OPTIONS, withFields } from '../../cli/globals.js';
import { defineCommand } from '../../cli/spec.js';

export const KINDS = ['name', 'notes', 'transcript', 'action-items', 'attendees'] as const;

export const find = defineCommand({
  name: 'find',
  summary: 'Full-text search of the local mirror: names, notes, transcripts, action items, attendees',
  description:
    'Search everything `mtg sync` stored, one result per matching passage (a transcript entry, a paragraph of ' +
    'notes, an action item, an attendee, the name), best first: ' +
    '{"meetingId", "meetingName", "createdAt", "in", "speaker", "timestamp", "snippet", "rank"}. Every word must match; ' +
    '"quoted phrases", prefix*, OR between two terms and -word (exclude) work. In json/csv the snippet marks ' +
    'matches with **; a table highlights them. Sends no request.',
  args: [
    {
      name: 'QUERY',
      description: 'words, "phrases", prefix*, a OR b, -excluded (quote the whole query when it holds -word)',
      required: true,
      variadic: true,
    },
  ],
  options: [
    {
      flags: '--in <kinds>',
      description: `only these passages: ${KINDS.join(',')} (repeatable, comma lists)`,
      repeatable: true,
      choices: KINDS,
    },
    {
      flags: '--since <time>',
      description: 'meetings created at or after: ISO date/time or 30m, 24h, 7d, 2w',
    },
    { flags: '--until <time>', description: 'meetings created before: ISO date/time or 30m, 24h, 7d, 2w' },
    ...withFields(OUTPUT_OPTIONS, 'meetingId,meetingName,snippet'),
    ...LOCAL_LIMIT_OPTIONS,
    ...MIRROR_OPTIONS,
  ],
  examples: [
    'mtg find "pricing page" --in transcript',
    "mtg find 'roadmap -draft' --since 30d --limit 10",
    'mtg find "onboard*" OR welcome --json',
  ],
});
