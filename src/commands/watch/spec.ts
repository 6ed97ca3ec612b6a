// mtg watch, as data: sync every interval and hand each new change event over exactly once.

import { FORMAT_ONLY_OPTIONS, NETWORK_OPTIONS, withFormats } from '../../cli/globals.js';
import { defineCommand } from '../../cli/spec.js';

export const RESOURCES = ['meetings', 'action-items', 'people', 'companies', 'transcripts'] as const;
export const WATCH_FORMATS = ['ndjson', 'table'] as const;
export const DEFAULT_INTERVAL = '5m';
export const DEFAULT_EXEC_TIMEOUT = '5m';

export const watch = defineCommand({
  name: 'watch',
  summary: 'Sync every interval and print each new change once (ndjson), or run a command per change',
  description:
    'Runs `mtg sync` every interval (default 5m) and prints each new change event once, in seq order, ' +
    'as one ndjson line: the objects of `mtg changes`. On a terminal (or --format table) a readable line ' +
    'per event and a status line on stderr. The last handled seq is kept in the mirror per --consumer: ' +
    'a restarted watch resumes after it; the first start begins after the changes already recorded ' +
    '(a mirror never synced: after its first complete sync); --from-start replays the whole log. ' +
    '--exec CMD runs CMD through sh -c once per event, one at a time, the event JSON on its stdin and ' +
    'MTG_EVENT_SEQ, MTG_EVENT_CHANGE, MTG_EVENT_RESOURCE, MTG_EVENT_ID (and MTG_EVENT_MINE=1|0 for ' +
    'action items) in its environment; its stdout goes to stderr; a failure is reported and the event ' +
    'counts as handled. A failed sync is reported and retried at the next interval. When a sync needs ' +
    'more requests than the rate limit sustains in one interval, the interval stretches (with a warning).',
  options: [
    {
      flags: '--interval <duration>',
      description: `time from one sync's start to the next (default ${DEFAULT_INTERVAL}): 30s, 5m, 1h`,
    },
    {
      flags: '--resource <names>',
      description: 'only these resources (repeatable, comma lists); only their lists are synced',
      repeatable: true,
      choices: RESOURCES,
    },
    { flags: '--exec <cmd>', description: 'run CMD (sh -c) once per event, event JSON on stdin' },
    {
      flags: '--exec-timeout <duration>',
      description: `stop a CMD still running after this long (default ${DEFAULT_EXEC_TIMEOUT})`,
    },
    { flags: '--no-transcripts', description: 'do not fetch transcripts' },
    { flags: '--from-start', description: 'replay the whole change log first' },
    { flags: '--once', description: 'one sync, hand its events over, then exit (cron and CI jobs)' },
    {
      flags: '--consumer <name>',
      description: 'the name the last handled seq is kept under (default: default)',
    },
    ...withFormats(FORMAT_ONLY_OPTIONS, WATCH_FORMATS, 'ndjson (default when piped), table (on a terminal)'),
    ...NETWORK_OPTIONS,
  ],
  instead: {
    '--output': 'it writes to stdout: redirect it instead of -o',
    '--checkpoint': 'it keeps its place in the mirror (--consumer)',
  },
  examples: [
    'mtg watch --interval 10m',
    'mtg watch --resource action-items --exec ./notify.sh\n# the script gets the event as JSON on stdin, and MTG_EVENT_* set',
    'mtg watch --once --consumer ci --format ndjson >> events.ndjson',
  ],
});
