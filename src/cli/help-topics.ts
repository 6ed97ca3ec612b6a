// The texts of `mtg help TOPIC`: one place for them. The build stores them in dist/help.json
// (help-build.ts), so the start-up file prints them without loading the CLI, and `npm run docs`
// writes them to docs/commands/topics/ and into man/mtg.1 (help-docs.ts). Plain text, at most 80
// columns (a test checks), no trailing spaces.

import type { HelpTopicName } from './help-texts.js';

export interface HelpTopic {
  name: HelpTopicName;
  /** One line, for the topic lists (root help, the reference's index, completion). */
  summary: string;
  text: string;
}

const EXIT_CODES = `Exit codes

Every command ends with one of these codes; scripts and CI can rely on them.

  0    success
  1    API, server or network error (also: a file that could not be written,
       a mirror driver that cannot load, a second sync of the same profile)
  2    usage or input error: nothing was sent (a bad flag or value, an empty
       --stdin or --notes-file, a bad --jq expression, no mirror for --offline)
  3    no API key, or the key was rejected (401/403)
  4    not found (404)
  5    still rate-limited after the allowed retries, or --max-wait reached
  6    partial failure: some items of a batch failed, the rest applied
       (each failure is reported on stderr and, in json/ndjson, on stdout)
  130  interrupted (Ctrl-C, SIGTERM); output written so far is well-formed

Errors are one line on stderr starting "mtg:". A list that stops midway still
leaves well-formed output (json closes its array, other formats end on a
complete line). --dry-run exits 0 and sends nothing.

Examples:
  mtg meetings view mtg_123 || echo "exit $?"
  mtg action-items update 41 42 --status done; [ $? -eq 6 ] && echo partial
`;

const ENVIRONMENT = `Environment variables

Settings (a flag wins over the variable, the variable over the stored config):
  MTG_API_KEY        the API key (CI and scripts: from the CI's secret store);
                     given this way, the OS credential store is never touched
  MTG_BASE_URL       the API's base URL (mtg sandbox prints one to try)
  MTG_APP_URL        the web app's URL, for meeting links (config: app-url)
  MTG_PROFILE        the config profile (default: default)
  MTG_CONFIG_DIR     the config folder (default: $XDG_CONFIG_HOME/mtg or
                     ~/.config/mtg; macOS ~/Library/Preferences/mtg; Windows
                     %APPDATA%\\mtg\\Config)
  MTG_DATA_DIR       the local mirror's folder (default: $XDG_DATA_HOME/mtg or
                     ~/.local/share/mtg)
  MTG_OFFLINE=1      as --offline: read commands answer from the mirror

Output:
  NO_COLOR           no colors (as --no-color)
  FORCE_COLOR=1      colors even when stdout is not a terminal
  TERM=dumb          no colors
  COLUMNS            the width tables fit (else the terminal's, else 80)
  TZ                 the time zone of bare dates (--since 2026-01-05) and tables

Network:
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY (and lower-case)
                     proxies; loopback is never proxied

Where things live: HOME (USERPROFILE, APPDATA, LOCALAPPDATA on Windows),
XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME; the Secret Service is found
through DBUS_SESSION_BUS_ADDRESS or $XDG_RUNTIME_DIR/bus.

Tuning and debugging:
  MTG_DEBUG=1        the stack trace of an unexpected error
  MTG_CONCURRENCY=N  requests in flight in batch commands (default 8; the rate
                     limit paces them either way)
  MTG_SQLITE_DRIVER  node:sqlite or better-sqlite3: the mirror's driver
  MTG_NO_HELP_CACHE=1  help from commander, not from the stored texts
  NODE_COMPILE_CACHE, NODE_DISABLE_COMPILE_CACHE=1
                     where node 22.1+ caches compiled code (default:
                     node-compile-cache in mtg's folder of the user's cache,
                     $XDG_CACHE_HOME/mtg or ~/.cache/mtg), or no cache

Set by mtg for a command run by "mtg watch --exec": MTG_EVENT_SEQ,
MTG_EVENT_CHANGE, MTG_EVENT_RESOURCE, MTG_EVENT_ID, MTG_EVENT_MINE.
`;

const FORMATS = `Output formats

  --format table|json|ndjson|csv|tsv   (--json is --format json)

The default is table on a terminal and tsv when stdout is a pipe or a file.
Data goes to stdout; progress, notes, warnings and errors go to stderr.

  table   for people: fitted to the width (COLUMNS, else the terminal, else
          80), relative dates, colors on a terminal; server text sanitized
  json    one JSON document: a list command prints one array of every item of
          every page, objects exactly as the API sent them, written as pages
          arrive; integers beyond 2^53 keep every digit
  ndjson  one object per line, flushed as pages arrive
  csv     a header row, then one row per item; RFC 4180 quoting; nested values
          flattened (assignee.name), arrays joined with ";"; a cell starting
          with = + - @ tab or CR gets a leading ' (--raw-cells: off);
          --bom starts the file with a UTF-8 byte-order mark
  tsv     as csv, tab-separated; tab, newline, CR and \\ are escaped, so one
          item is always one line, and other controls as \\xHH (ESC: \\x1b)

  --fields a,b.c   choose and order fields (dotted paths); an unknown field is
                   exit 2 listing the valid ones
  --jq EXPR        filter the whole JSON document with jq, in-process
  --limit N        stop after N items, and stop fetching pages
  -o FILE          write the data to FILE atomically (nothing half-written)

Some commands have their own formats: meetings transcript takes text, json,
ndjson, srt, vtt and md.

Examples:
  mtg action-items list --assignee anyone --format csv -o items.csv
  mtg meetings list --fields id,name --json
  mtg people list --format ndjson | jq -c '{email}'
`;

const DATES = `Dates: --since and --until

meetings list, meetings search, find and export markdown keep the items whose
createdAt is in [--since, --until); changes takes --since only.

  7d, 24h, 30m, 2w          counted back from now (a day is 24 hours)
  2026-01-05                a day in local time (TZ): as --since that day's
                            midnight, as --until the next midnight, so
                            --since D --until D is the whole day D
  2026-01-05T09:00          local time
  2026-01-05T09:00+01:00    that instant (Z or an offset)

A value that is none of these, or a --since not earlier than --until, is exit 2
before anything is sent. Online, meetings list stops fetching at the first
page whose meetings are all older than --since (the list is newest first).

Examples:
  mtg meetings list --since 7d
  mtg meetings list --since 2026-01-05 --until 2026-01-09
  mtg find budget --since 2w
`;

const MIRROR = `The local mirror

(A help topic. The mtg mirror command's own options: mtg mirror --help.)

mtg sync keeps an exact local copy of what your key can see, in one SQLite
file per profile (MTG_DATA_DIR, else ~/.local/share/mtg), so that reads,
search and change feeds cost no requests against the rate limit.

  mtg sync                 first time: everything; later: list pages, plus the
                           transcripts of new or changed meetings
  mtg find QUERY           full-text search: names, notes, transcripts, action
                           items, attendees ("phrases", prefix*, OR, -word)
  mtg sql "SELECT ..."     read-only SQL (mtg sql --schema lists the tables)
  mtg changes              what the latest sync learned (--after SEQ: every
                           later event, never one twice)
  mtg watch                sync every interval, print each change (--exec CMD)
  mtg export markdown DIR  one Markdown file per meeting, kept in step
  mtg mirror status|reset  where it is and what it holds; delete it (this
                           command's own help: mtg mirror --help)
  --offline (MTG_OFFLINE=1)  meetings list|search|view|transcript,
                           action-items list, people list, companies list|view
                           answer from the mirror and send nothing

A sync is paced like every command, commits page by page (killed at any point
it resumes where it stopped), marks what a complete walk no longer finds as
deleted, and runs one at a time per profile; reads never wait for it.
mtg mcp serves the mirror to AI assistants (mtg help mcp).

Examples:
  mtg sync && mtg find "budget review"
  mtg meetings list --offline --since 7d
  mtg changes --resource action-items --format ndjson

More: docs/mirror.md in the package's repository.
`;

const MCP = `mtg mcp: the mirror as an MCP server for AI assistants

  mtg mcp [--offline] [--sync-every DURATION] [--allow-writes] [--profile NAME]
  (a help topic; the command's options and defaults: mtg mcp --help)
  mtg mcp install|uninstall CLIENT [--print]

A Model Context Protocol server on stdio: Claude Code, Claude Desktop, Cursor,
VS Code and any other MCP client read your meetings from the local mirror
(mtg sync). Reads send no request, spend no rate limit and work offline; they
see the mirror's last committed state, a sync by another process included.

  --offline             no sync tool: the server never sends a request
                        (not with --sync-every or --allow-writes: exit 2)
  --sync-every 10m      also sync in the server's process at start and then
                        every interval (reads never wait for it)
  --allow-writes        add the write tools (each one request, paced)
  --profile NAME        serve that profile's mirror (also MTG_PROFILE)

Tools: search (the hits of mtg find), list_meetings, get_meeting,
get_transcript (paged by characters: pass nextCursor back), list_action_items
(by attendee, assignee or me, date, words), get_person, changes,
sql (read-only), mirror_status; sync (not with --offline);
create_action_item and update_action_item (with --allow-writes only).
Resource: mtg://meetings/{id}, a meeting as Markdown. Every result stays under
20,000 tokens (any script); longer lists and transcripts continue with a cursor.

Add it to an assistant (run mtg sync first): one command writes the
assistant's own configuration file (node and mtg by absolute path, other
servers kept, a backup beside it; --print shows it first):
  mtg mcp install claude-code    (or claude-desktop, cursor, vscode, windsurf)
  mtg mcp install cursor --sync-every 10m --allow-writes --profile work
  mtg mcp uninstall claude-code

More: docs/mcp.md in the installed package
($(npm root -g)/meeting-notes-cli/docs/mcp.md) and in its repository.
`;

export const HELP_TOPICS: readonly HelpTopic[] = [
  { name: 'exit-codes', summary: 'What each exit code means', text: EXIT_CODES },
  { name: 'environment', summary: 'Every environment variable mtg reads', text: ENVIRONMENT },
  { name: 'formats', summary: 'Output formats, fields, --jq, -o', text: FORMATS },
  { name: 'dates', summary: 'What --since and --until take', text: DATES },
  { name: 'mirror', summary: 'The local mirror: sync, find, sql, changes, --offline', text: MIRROR },
  { name: 'mcp', summary: 'mtg mcp: the mirror as an MCP server for AI assistants', text: MCP },
];

/** Topic name -> text, as dist/help.json stores them. */
export function helpTopicTexts(): Record<string, string> {
  return Object.fromEntries(HELP_TOPICS.map((t) => [t.name, t.text]));
}
