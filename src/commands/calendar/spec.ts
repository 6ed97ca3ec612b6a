// mtg calendar set-notes, as data: private notes and tags on the meeting of a calendar event.

import { DRY_RUN_OPTION } from '../../cli/dry-run.js';
import { NETWORK_OPTIONS, OUTPUT_OPTIONS, withFields } from '../../cli/globals.js';
import { defineCommand, type GroupDecl } from '../../cli/spec.js';

export const group: GroupDecl = {
  name: 'calendar',
  summary: 'Set private notes and tags on the meeting of a calendar event',
};

export const setNotes = defineCommand({
  name: 'set-notes',
  summary: 'Replace the private notes and/or tags of a calendar event’s meeting',
  description:
    'Set your private notes (Markdown) and/or the tags of the meeting that belongs to a calendar ' +
    'event; the meeting is created when it does not exist yet. The notes replace the current ones ' +
    'entirely; --tag replaces the tag list; --clear-tags removes every tag. Empty notes (an empty ' +
    'file or pipe, --notes "") are refused, so that an empty pipe never erases your notes: to ' +
    'clear them on purpose, use --clear-notes. Prints the meeting.',
  args: [{ name: 'CALENDAR_MEETING_ID', description: 'the calendar meeting ID', required: true }],
  options: [
    { flags: '--notes <text>', description: 'the private notes (Markdown)' },
    { flags: '--notes-file <path>', description: 'read the notes from a file, or - for stdin' },
    { flags: '--clear-notes', description: 'empty the private notes (conflicts with --notes, --notes-file)' },
    { flags: '--tag <id>', description: 'set these tags (repeatable, comma lists)', repeatable: true },
    { flags: '--clear-tags', description: 'remove every tag (conflicts with --tag)' },
    DRY_RUN_OPTION,
    ...withFields(OUTPUT_OPTIONS, 'id,name,tags'),
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg calendar set-notes 8812 --notes "Ask about the Q3 budget"',
    'cat agenda.md | mtg calendar set-notes 8812 --notes-file - \\\n  --tag 3,7 --dry-run',
    'mtg calendar set-notes 8812 --clear-notes --clear-tags   # no notes, no tags',
  ],
});
