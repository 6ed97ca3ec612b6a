// mtg export markdown, as data: the mirror's meetings as a folder of Markdown files that stays in step.

import { NETWORK_OPTIONS, SUMMARY_OUTPUT_OPTIONS, withFormats } from '../../cli/globals.js';
import { defineCommand, type GroupDecl } from '../../cli/spec.js';

export const group: GroupDecl = {
  name: 'export',
  summary: 'Export the local mirror (Markdown files)',
};

export const markdown = defineCommand({
  name: 'markdown',
  aliases: ['md'],
  summary: 'Write the mirror\u2019s meetings as Markdown files (one per meeting) that stay in step',
  description:
    'One Markdown file per meeting of the local mirror, as YYYY/YYYY-MM-DD <name> (<short id>).md, with YAML ' +
    'front matter (id, name, date, duration, url, tags, attendees, companies, link), the notes, action items as ' +
    'task lines, insights, and with --transcripts the transcript. Run it again: only changed meetings are ' +
    'rewritten, renamed meetings move their file, and text below the line ' +
    '"<!-- mtg: notes below this line are kept -->" is kept. Deleted meetings are reported; --prune removes ' +
    'their files. --template FILE uses your Mustache template (start from --print-template).',
  args: [{ name: 'dir', description: 'the folder to write (created when missing)' }],
  options: [
    { flags: '--transcripts', description: 'include each meeting\u2019s transcript' },
    { flags: '--private-notes', description: 'include your private notes' },
    { flags: '--since <time>', description: 'only meetings created at or after TIME (2026-01-05, 7d, ...)' },
    { flags: '--until <time>', description: 'only meetings created before TIME' },
    { flags: '--prune', description: 'remove the files of meetings deleted on the server' },
    { flags: '--template <file>', description: 'a Mustache template for the file body' },
    { flags: '--print-template', description: 'print the built-in template (to copy and edit) and exit' },
    { flags: '--sync', description: 'run `mtg sync` first' },
    ...withFormats(SUMMARY_OUTPUT_OPTIONS, ['json'], 'json only (the summary object, as --json)'),
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg export markdown ~/Vault/Meetings --transcripts',
    'mtg export markdown notes/ --sync --since 30d --prune --json',
    'mtg export markdown --print-template > meeting.mustache',
  ],
});
