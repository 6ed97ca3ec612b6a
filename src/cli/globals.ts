// The global options of the contract, declared once for commander, help and completion, and
// validated before anything is sent.

import { UsageError } from '../api/errors.js';
import { positiveId, seconds, wholeNumber } from './input.js';
import type { OptionSpec } from './spec.js';

export const LIST_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

export const GLOBAL_OPTIONS: OptionSpec[] = [
  {
    flags: '--format <format>',
    description: 'output format (default: table on a terminal, tsv when piped)',
    choices: LIST_FORMATS,
  },
  { flags: '--json', description: 'same as --format json' },
  { flags: '--fields <list>', description: 'choose and order fields, e.g. id,title,assignee.name' },
  { flags: '--limit <n>', description: 'stop after N items (and stop fetching pages)' },
  { flags: '--no-color', description: 'disable colors (also NO_COLOR)' },
  { flags: '-o, --output <file>', description: 'write data to FILE atomically instead of stdout' },
  { flags: '-q, --quiet', description: 'no progress or notes on stderr' },
  { flags: '-v, --verbose', description: 'log each request, status, timing and rate-limit state to stderr' },
  { flags: '--max-retries <n>', description: 'retries of a failed request', defaultValue: '5' },
  { flags: '--timeout <seconds>', description: 'per-request timeout', defaultValue: '30' },
  {
    flags: '--max-wait <seconds>',
    description: 'the most to wait on rate limits in all, then exit 5',
    defaultValue: '900',
  },
  { flags: '--checkpoint <file>', description: 'list commands: record progress in FILE and resume from it' },
  { flags: '--bom', description: 'start csv output with a UTF-8 byte-order mark' },
  { flags: '--raw-cells', description: "csv/tsv: do not prefix formula-like cells with '" },
  { flags: '--insecure', description: 'allow http:// to a host other than loopback' },
  {
    flags: '--api-key <key>',
    description: 'API key (discouraged: visible in ps; use MTG_API_KEY or auth login)',
  },
  { flags: '--base-url <url>', description: 'API base URL (also MTG_BASE_URL)' },
  { flags: '--profile <name>', description: 'config profile (also MTG_PROFILE)', defaultValue: undefined },
  {
    flags: '--offline',
    description:
      'read commands answer from the local mirror (`mtg sync`) and send nothing (also MTG_OFFLINE=1)',
  },
  // Scripting (src/cli/jq.ts; --since/--until and --dry-run are options of the commands they apply to).
  {
    flags: '--jq <expr>',
    description: 'filter the whole JSON output with a jq expression, in-process (implies --json)',
  },
];

export interface Globals {
  format?: string;
  fields?: string;
  limit?: number;
  color: boolean;
  output?: string;
  quiet: boolean;
  verbose: boolean;
  maxRetries: number;
  timeoutMs: number;
  maxWaitMs: number;
  checkpoint?: string;
  bom: boolean;
  rawCells: boolean;
  insecure: boolean;
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
  offline: boolean;
  /** --jq: the expression (compiled before anything is sent, in main.ts). */
  jq?: string;
}

export function parseGlobals(raw: Record<string, unknown>): Globals {
  const str = (k: string) => (typeof raw[k] === 'string' ? (raw[k] as string) : undefined);
  let format = str('format')?.toLowerCase();
  if (raw.json) {
    if (format && format !== 'json') throw new UsageError(`--json conflicts with --format ${format}`);
    format = 'json';
  }
  const jq = str('jq');
  if (jq !== undefined) {
    if (jq.trim() === '') throw new UsageError("--jq needs an expression, e.g. --jq '.[] | .id'");
    // --jq reads the json document: it implies --json, and any other format is a contradiction.
    if (format && format !== 'json') throw new UsageError(`--jq conflicts with --format ${format}`);
    if (raw.checkpoint !== undefined) {
      throw new UsageError('--jq conflicts with --checkpoint: a filtered export cannot be resumed');
    }
    format = 'json';
  }
  const limit = str('limit');
  return {
    format,
    fields: str('fields'),
    limit: limit === undefined ? undefined : positiveId(limit, '--limit'),
    color: raw.color !== false,
    output: str('output'),
    quiet: !!raw.quiet,
    verbose: !!raw.verbose,
    maxRetries: wholeNumber(str('maxRetries') ?? '5', '--max-retries'),
    timeoutMs: seconds(str('timeout') ?? '30', '--timeout', false) * 1000,
    maxWaitMs: seconds(str('maxWait') ?? '900', '--max-wait', true) * 1000,
    checkpoint: str('checkpoint'),
    bom: !!raw.bom,
    rawCells: !!raw.rawCells,
    insecure: !!raw.insecure,
    apiKey: str('apiKey'),
    baseUrl: str('baseUrl'),
    profile: str('profile'),
    offline: !!raw.offline,
    jq,
  };
}
