// mtg sync, as data: copy what the key can see into the profile's local mirror.

import { NETWORK_OPTIONS, SUMMARY_OUTPUT_OPTIONS, withFormats } from '../../cli/globals.js';
import { defineCommand } from '../../cli/spec.js';
import { positiveId } from '../../shared/ids.js';

export const SYNC_LISTS = ['meetings', 'action-items', 'people', 'companies'] as const;

export const sync = defineCommand({
  name: 'sync',
  summary: 'Copy meetings, transcripts, action items, people and companies into the local mirror',
  description:
    'Walk every list of the API into the local mirror (one SQLite file per profile) and fetch the ' +
    'transcripts of new and changed meetings. Commits as it goes: interrupted or killed, the next ' +
    'sync goes on where it stopped. Items a completed walk no longer returns are kept as tombstones ' +
    'and reported by `mtg changes`. Prints a one-line summary on stderr; --json prints it as an object.',
  options: [
    { flags: '--no-transcripts', description: 'do not fetch transcripts' },
    {
      flags: '--only <lists>',
      description: 'walk only these lists (repeatable, comma lists)',
      repeatable: true,
      choices: SYNC_LISTS,
    },
    {
      flags: '--budget <n>',
      description: 'send at most N requests, then stop cleanly (sync again to go on)',
      parse: (v: string) => positiveId(v, '--budget'),
    },
    { flags: '--full', description: 'fetch every transcript again and start every list from its first page' },
    ...withFormats(SUMMARY_OUTPUT_OPTIONS, ['json'], 'json only (the summary object, as --json)'),
    ...NETWORK_OPTIONS,
  ],
  instead: {
    '--fields': 'use --only, --budget or --no-transcripts',
    '--limit': 'use --only, --budget or --no-transcripts',
  },
  examples: [
    'mtg sync',
    'mtg sync --only action-items,people --no-transcripts --json',
    'mtg sync --budget 100    # a little at a time under a tight rate limit',
  ],
});
