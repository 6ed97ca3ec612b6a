// The global options of the contract, declared once for commander, help and completion, and
// validated before anything is sent.

import { UsageError } from '../shared/errors.js';
import { positiveId, wholeNumber } from '../shared/ids.js';
import { longFlagOf, type OptionDecl } from './declare.js';
import { seconds } from './input.js';

export const LIST_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

// Each global option is marked `global: true`: its value goes to ctx.globals (parseGlobals), not
// to the command's own options. The contract lists all of them as global options: given before or
// after the command words, they mean the same.

/**
 * Options of every command: how mtg talks (colors, progress) and which profile it means. What only
 * a server's address or a request uses (--base-url, --insecure, -v, --api-key) is in the sets below,
 * offered by the commands that use it.
 */
export const COMMON_OPTIONS = [
  { flags: '--no-color', description: 'disable colors (also NO_COLOR)', global: true },
  { flags: '-q, --quiet', description: 'no progress or notes on stderr', global: true },
  { flags: '--profile <name>', description: 'config profile (also MTG_PROFILE)', global: true },
  {
    flags: '--offline',
    description:
      'read commands answer from the local mirror (`mtg sync`) and send nothing (also MTG_OFFLINE=1)',
    global: true,
  },
] as const satisfies readonly OptionDecl[];

/** The options of every command that `decl` can use: COMMON_OPTIONS less its `without`. */
export function commonOptionsOf(decl: { without?: readonly string[] }): readonly OptionDecl[] {
  const without = decl.without ?? [];
  return COMMON_OPTIONS.filter((o) => !without.includes(longFlagOf(o)));
}

const FORMAT = {
  flags: '--format <format>',
  description: 'output format (default: table on a terminal, tsv when piped)',
  choices: LIST_FORMATS,
  global: true,
} as const satisfies OptionDecl;
const JSON_FLAG = { flags: '--json', description: 'same as --format json', global: true } as const;
const FIELDS = {
  flags: '--fields <list>',
  description: 'choose and order fields (a,b,c; dotted paths such as a.b)',
  global: true,
} as const;
const OUTPUT_FILE = {
  flags: '-o, --output <file>',
  description: 'write data to FILE atomically instead of stdout',
  global: true,
} as const;
const BOM = {
  flags: '--bom',
  description: 'start csv output with a UTF-8 byte-order mark',
  global: true,
} as const;
const RAW_CELLS = {
  flags: '--raw-cells',
  description: "csv/tsv: do not prefix formula-like cells with '",
  global: true,
} as const;
// Scripting (src/cli/jq.ts; --since/--until and --dry-run are options of the commands they apply to).
const JQ = {
  flags: '--jq <expr>',
  description: 'filter the whole JSON output with a jq expression, in-process (implies --json)',
  global: true,
} as const;
const LIMIT = {
  flags: '--limit <n>',
  description: 'stop after N items (and stop fetching pages)',
  global: true,
} as const;
const CHECKPOINT = {
  flags: '--checkpoint <file>',
  description: 'list commands: record progress in FILE and resume from it',
  global: true,
} as const;

// Option sets: each command spreads into its options the sets it honours (so its --help shows
// them), and refuses the others (exit 2, see program.ts).

/** Data output (items or one object): every format, fields, a file, csv details, jq. */
export const OUTPUT_OPTIONS = [FORMAT, JSON_FLAG, FIELDS, OUTPUT_FILE, BOM, RAW_CELLS, JQ] as const;
/** Output of commands whose formats are their own (transcript, api): no csv cells. */
export const DOCUMENT_OUTPUT_OPTIONS = [FORMAT, JSON_FLAG, FIELDS, OUTPUT_FILE, JQ] as const;
/** A summary printed as one JSON object with --json (sync, export markdown, mirror status). */
export const SUMMARY_OUTPUT_OPTIONS = [FORMAT, JSON_FLAG, OUTPUT_FILE, JQ] as const;
/** The format and --json (sandbox: --json prints its address as an object). */
export const FORMAT_OPTIONS = [FORMAT, JSON_FLAG] as const;
/** Only the format (watch prints ndjson or table lines to stdout, never json). */
export const FORMAT_ONLY_OPTIONS = [FORMAT] as const;
/** List exports (runList): --limit, and --checkpoint to resume. */
export const LIST_OPTIONS = [LIMIT, CHECKPOINT] as const;
/** Commands that stop after N items but cannot resume. */
export const LIMIT_OPTIONS = [LIMIT] as const;
const INSECURE = {
  flags: '--insecure',
  description: 'allow http:// to a host other than loopback',
  global: true,
} as const;
const BASE_URL = {
  flags: '--base-url <url>',
  description: 'API base URL (also MTG_BASE_URL)',
  global: true,
} as const;
/** `config set base-url`: an http:// URL of another host is stored only with --insecure. */
export const INSECURE_OPTIONS = [INSECURE] as const;
/**
 * Commands that read the local mirror without a request: which server's copy they mean. No
 * --insecure: nothing is sent, so there is no http:// to allow.
 */
export const MIRROR_OPTIONS = [BASE_URL] as const;
/** Commands that send requests. */
export const NETWORK_OPTIONS = [
  BASE_URL,
  INSECURE,
  {
    flags: '-v, --verbose',
    description: 'log each request, status, timing and rate-limit state to stderr',
    global: true,
  },
  {
    flags: '--api-key <key>',
    description: 'API key (discouraged: visible in ps; use MTG_API_KEY or auth login)',
    global: true,
  },
  { flags: '--max-retries <n>', description: 'retries of a failed request', defaultValue: '5', global: true },
  { flags: '--timeout <seconds>', description: 'per-request timeout', defaultValue: '30', global: true },
  {
    flags: '--max-wait <seconds>',
    description: 'the most to wait on rate limits in all, then exit 5',
    defaultValue: '900',
    global: true,
  },
] as const;

/**
 * An option set whose --format offers the command's own formats (completion, help) instead of the
 * list formats: `withFormats(DOCUMENT_OUTPUT_OPTIONS, ['text', 'srt'], 'text (default), srt')`.
 * The command still checks the value itself (planOutput's `formats`).
 */
export function withFormats<const O extends readonly OptionDecl[]>(
  options: O,
  formats: readonly string[],
  description: string,
): O {
  return options.map((o) =>
    o === FORMAT ? { ...FORMAT, choices: formats, description: `output format: ${description}` } : o,
  ) as unknown as O;
}

/**
 * The option set with its --fields example naming the command's own fields (help shows it):
 * `withFields(OUTPUT_OPTIONS, 'id,name,createdAt')`. A test checks each example against the command.
 */
export function withFields<const O extends readonly OptionDecl[]>(options: O, example: string): O {
  return options.map((o) =>
    o === FIELDS ? { ...FIELDS, description: `choose and order fields, e.g. ${example}` } : o,
  ) as unknown as O;
}

/** --limit of the commands that query the local mirror: nothing is fetched, the query stops. */
export const LOCAL_LIMIT_OPTIONS = [
  { ...LIMIT, description: 'show at most N items (the query of the mirror stops there)' },
] as const;

/** Every global option: the common ones, then each option of every set once. */
export const GLOBAL_OPTIONS: readonly OptionDecl[] = [
  ...COMMON_OPTIONS,
  ...OUTPUT_OPTIONS,
  ...LIST_OPTIONS,
  ...NETWORK_OPTIONS,
];

/** The global options that only some commands honour (the sets). */
export const SET_OPTIONS: readonly OptionDecl[] = GLOBAL_OPTIONS.filter(
  (o) => !(COMMON_OPTIONS as readonly OptionDecl[]).includes(o),
);

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
