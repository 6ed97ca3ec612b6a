// mtg changes, as data: the mirror's change log, oldest first, in every output format.

import { LOCAL_LIMIT_OPTIONS, MIRROR_OPTIONS, OUTPUT_OPTIONS, withFields } from '../../cli/globals.js';
import { defineCommand } from '../../cli/spec.js';
import { wholeNumber } from '../../shared/ids.js';

export const RESOURCES = ['meetings', 'action-items', 'people', 'companies', 'transcripts'] as const;

export const changes = defineCommand({
  name: 'changes',
  summary: 'What the local mirror learned: created, updated, deleted, completed and reopened items',
  description:
    'The change log of the local mirror (written by `mtg sync`), oldest first: ' +
    '{"seq","run","at","resource","id","change","fields","item"}. By default the changes of the latest sync. ' +
    '`seq` only grows: keep the last one you handled and pass --after SEQ to see each event exactly once. ' +
    '`item` is the object as the mirror holds it now (for deleted: the last one known).',
  options: [
    {
      flags: '--since <when>',
      description: 'last (the latest sync, the default), a sync run number, an ISO date/time, or 24h, 7d…',
    },
    {
      flags: '--after <seq>',
      description: 'only events after this seq (alone: every later event)',
      parse: (v: string) => wholeNumber(v, '--after'),
    },
    {
      flags: '--resource <names>',
      description: 'only these resources (repeatable, comma lists)',
      repeatable: true,
      choices: RESOURCES,
    },
    ...withFields(OUTPUT_OPTIONS, 'seq,resource,id,change,item.title'),
    ...LOCAL_LIMIT_OPTIONS,
    ...MIRROR_OPTIONS,
  ],
  instead: { '--checkpoint': 'use --after SEQ' },
  examples: [
    'mtg changes',
    'mtg changes --after 1200 --resource action-items --format ndjson',
    'mtg changes --since 7d --json',
  ],
});
