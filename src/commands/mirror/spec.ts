// mtg mirror status|reset, as data: what the profile's local mirror holds, and starting it over.

import { SUMMARY_OUTPUT_OPTIONS, withFormats } from '../../cli/globals.js';
import { defineCommand, type GroupDecl } from '../../cli/spec.js';

export const group: GroupDecl = {
  name: 'mirror',
  summary: 'Show or reset the local mirror that `mtg sync` writes',
};

export const status = defineCommand({
  name: 'status',
  summary: 'Where the mirror is, what it holds, when it was last synced',
  options: [
    ...withFormats(
      SUMMARY_OUTPUT_OPTIONS,
      ['table', 'json', 'ndjson'],
      'table (text, the default), json, ndjson',
    ),
  ],
  examples: ['mtg mirror status', 'mtg mirror status --json', 'mtg mirror status --profile work'],
});

export const reset = defineCommand({
  name: 'reset',
  summary: "Delete this profile's mirror (the next `mtg sync` starts over)",
  description:
    "Delete this profile's mirror files (the database and its -wal/-shm files). Refused while a sync " +
    'of the profile runs. Needed to mirror another base URL, or to replace a corrupt file. A file ' +
    "that is not an mtg mirror (another program's database, an unreadable file) is refused unless --force.",
  options: [{ flags: '--force', description: 'delete the file even when it is not an mtg mirror' }],
  examples: ['mtg mirror reset', 'mtg mirror reset --profile work && mtg sync --profile work'],
});
