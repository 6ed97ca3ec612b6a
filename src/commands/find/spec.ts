// mtg find, as data: full-text search of the local mirror, one result per matching passage.

import { LOCAL_LIMIT_OPTIONS, MIRROR_OPTIONS, OUTPUT_OPTIONS, withFields } from '../../cli/globals.js';
import { defineCommand } from '../../cli/spec.js';

export const KINDS = ['name', 'notes', 'transcript', 'action-items', 'attendees'] as const;
export const UNITS = ['passage', 'meeting'] as const;

export const find = defineCommand({
  name: 'find',
  summary: 'Full-text search of the local mirror: names, notes, transcripts, action items, attendees',
  description:
    'Search everything `mtg sync` stored, one result per matching passage (a window of neighbouring transcript ' +
    'entries, a paragraph of notes with its heading, an action item, an attendee, the name), best first: ' +
    '{"meetingId", "meetingName", "createdAt", "in", "speaker", "timestamp", "snippet", "rank", "matched"} ' +
    '(speaker and timestamp: the entry that matches best; matched: the words that matched). Keywords or a ' +
    'question in plain words: a passage need not hold every word, but those holding all of them, the rarer ' +
    'ones and the words close together rank first; stop and question words carry no weight, word forms match ' +
    '(porter stemmer), speaker names are searched too. A word that matches nothing is replaced by the nearest ' +
    'indexed word (said on stderr, as the mirror writes it; --exact: not). "quoted phrases", prefix*, OR between two terms and -word ' +
    '(exclude) work. --by meeting: one row per meeting with its best passages ("passages"). In json/csv the ' +
    'snippet marks matches with **; a table highlights them. Sends no request.',
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
    {
      flags: '--by <unit>',
      description: 'one row per passage (default) or per meeting, with its best passages',
      choices: UNITS,
    },
    { flags: '--exact', description: 'no typo correction: a word that matches nothing finds nothing' },
    ...withFields(OUTPUT_OPTIONS, 'meetingId,meetingName,snippet'),
    ...LOCAL_LIMIT_OPTIONS,
    ...MIRROR_OPTIONS,
  ],
  examples: [
    'mtg find "pricing page" --in transcript',
    "mtg find 'roadmap -draft' --since 30d --limit 10 --json",
    'mtg find "what did Dana say about the budget?" --by meeting',
  ],
});
