// mtg meetings list|search|view|transcript|share, as data: read meetings, their transcripts, and
// share them. Each command runs in the file of its name beside this one.

import { SHARE_ACCESS_VALUES, SHARE_MAX_TARGETS } from '../../api/assumptions.js';
import { TIME_WINDOW_OPTIONS } from '../../cli/dates.js';
import { DRY_RUN_OPTION } from '../../cli/dry-run.js';
import {
  DOCUMENT_OUTPUT_OPTIONS,
  LIMIT_OPTIONS,
  LIST_OPTIONS,
  NETWORK_OPTIONS,
  OUTPUT_OPTIONS,
  withFields,
  withFormats,
} from '../../cli/globals.js';
import { oneOf } from '../../cli/input.js';
import { defineCommand, type GroupDecl } from '../../cli/spec.js';

export const group: GroupDecl = {
  name: 'meetings',
  aliases: ['meeting'],
  summary: 'List, search, view, transcribe and share meetings',
};

const tagOption = {
  flags: '--tag <id>',
  description: 'only meetings with this tag (repeatable, or a comma list)',
  repeatable: true,
} as const;

export const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List meetings, newest first',
  description:
    'List meetings, newest first. --since/--until keep the meetings created in that window; the ' +
    'fetching stops at the first page whose meetings are all older than --since.',
  options: [
    tagOption,
    ...TIME_WINDOW_OPTIONS,
    ...withFields(OUTPUT_OPTIONS, 'id,name,createdAt'),
    ...LIST_OPTIONS,
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg meetings list --limit 10',
    'mtg meetings list --since 7d --json',
    "mtg meetings list --since 2026-01-05 --until 2026-01-09 \\\n  --jq '.[] | select(.attendees | length > 5) | .id'",
  ],
});

export const search = defineCommand({
  name: 'search',
  summary: 'Search meetings by name and content',
  description:
    'Search meetings by name, notes and transcript. Filters combine: every --tag, --attendee and --meeting ' +
    'narrows the result further; each is repeatable and takes comma lists.',
  args: [{ name: 'TERM', description: 'text to search for (omit to list every meeting the filters allow)' }],
  options: [
    tagOption,
    {
      flags: '--attendee <profileId>',
      description: 'only meetings this person attended (repeatable)',
      repeatable: true,
    },
    { flags: '--meeting <id>', description: 'only these meetings (repeatable)', repeatable: true },
    ...TIME_WINDOW_OPTIONS,
    ...withFields(OUTPUT_OPTIONS, 'id,name,tags'),
    ...LIST_OPTIONS,
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg meetings search roadmap --limit 5',
    'mtg meetings search --tag 3 --attendee 12,14 --json',
    'mtg meetings search budget --since 2w --until 2026-03-01',
  ],
});

export const view = defineCommand({
  name: 'view',
  aliases: ['show'],
  summary: 'Show one meeting: notes, attendees, action items, insights',
  description:
    'Show one meeting as a readable page: details, attendees, notes, private notes, action items, ' +
    'insights and sharing, wrapped at word boundaries to the terminal (COLUMNS, else 80). Piped or ' +
    'with -o FILE it is the same page as plain text. With --json or --format ndjson the meeting exactly ' +
    'as the API sent it (for scripts); csv/tsv, or --fields, give one row. --web prints the link to the meeting in the web app ' +
    '(from MTG_APP_URL or `mtg config set app-url URL`) without sending a request.',
  args: [{ name: 'MEETING_ID', description: 'the meeting ID', required: true }],
  options: [
    { flags: '--web', description: 'print the web-app link instead (no request)', defaultValue: false },
    ...withFields(OUTPUT_OPTIONS, 'id,name,duration,attendees'),
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg meetings view mtg_3f2a9c',
    'mtg meetings view mtg_3f2a9c --json',
    'mtg meetings view mtg_3f2a9c --web',
  ],
});

/** One response holds the whole transcript: --limit cuts it, there are no pages to stop fetching. */
const TRANSCRIPT_LIMIT_OPTIONS = [
  { ...LIMIT_OPTIONS[0], description: 'print at most the first N entries' },
] as const;

/** The transcript's formats (text when none is given); --fields applies to json and ndjson. */
export const TRANSCRIPT_FORMATS = ['text', 'json', 'ndjson', 'srt', 'vtt', 'md'] as const;

export const transcript = defineCommand({
  name: 'transcript',
  summary: 'Print a meeting transcript as text, subtitles (srt, vtt), Markdown or JSON',
  description:
    'Print the transcript of a meeting. Formats (global --format): text (default: "[mm:ss] Speaker: text"), ' +
    'srt and vtt (subtitles; each cue lasts until the next entry), md (a Markdown document), json and ndjson ' +
    '(entries exactly as the API sent them). -o FILE writes any of them atomically.',
  args: [{ name: 'MEETING_ID', description: 'the meeting ID', required: true }],
  options: [
    ...withFormats(
      withFields(DOCUMENT_OUTPUT_OPTIONS, 'timestamp,speaker,text'),
      TRANSCRIPT_FORMATS,
      'text (default), srt, vtt, md, json, ndjson',
    ),
    ...TRANSCRIPT_LIMIT_OPTIONS,
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg meetings transcript mtg_3f2a9c',
    'mtg meetings transcript mtg_3f2a9c --format srt -o meeting.srt',
    'mtg meetings transcript mtg_3f2a9c --format md > notes.md',
  ],
});

export const share = defineCommand({
  name: 'share',
  summary: 'Share a meeting with people (email) or teams',
  description:
    `Share a meeting with people by email and with teams by ID. Targets come from --email, --team and --stdin ` +
    `(one email or team ID per line, or NDJSON objects with "email" or "teamId"), indexed from 0 in that order: ` +
    `every --email target first, then every --team, then the --stdin lines, whatever order the options were typed in. ` +
    `Every target is checked before anything is sent. More than ${SHARE_MAX_TARGETS} go out in batches of ` +
    `${SHARE_MAX_TARGETS}. Each failed target is reported on stderr by its index; the meeting's sharing list is ` +
    'printed (--json: {"sharedWith": [...], "errors": [{"index", "target", "error"}]}; --format ndjson: one ' +
    '{"type": "sharedWith", "value": ...} or {"type": "error", "index", "target", "error"} per line). ' +
    'Exit 6 when some targets failed and the rest applied, 1 when all failed.',
  args: [{ name: 'MEETING_ID', description: 'the meeting ID', required: true }],
  options: [
    {
      flags: '--email <addr>',
      description: 'share with this person (repeatable, or a comma list)',
      repeatable: true,
    },
    {
      flags: '--team <id>',
      description: 'share with this team (repeatable, or a comma list)',
      repeatable: true,
    },
    {
      flags: '--access <level>',
      description: 'access to grant: Viewer or Editor (case-insensitive)',
      choices: SHARE_ACCESS_VALUES,
      defaultValue: 'Viewer',
      parse: (v: string) => oneOf(v, SHARE_ACCESS_VALUES, 'access'),
    },
    {
      flags: '--stdin',
      description:
        'also read targets from stdin (one per line, or mtg json/ndjson/csv/tsv with an email column)',
      defaultValue: false,
    },
    DRY_RUN_OPTION,
    ...withFields(OUTPUT_OPTIONS, 'name,email,access'),
    ...NETWORK_OPTIONS,
  ],
  examples: [
    'mtg meetings share mtg_3f2a9c --email ann@example.com --access Editor',
    'mtg meetings share mtg_3f2a9c --team 4,7 --dry-run',
    'mtg people list --domain acme.example --fields email \\\n  | mtg meetings share mtg_3f2a9c --stdin',
  ],
});
