// mtg api: any request to the API with the same auth, retries, pacing and pagination as the other
// commands (after `gh api`). For endpoints the CLI has no command for, and for debugging.

import { readFile } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import type { Query } from '../api/url.js';
import type { Context } from '../cli/context.js';
import { DRY_RUN_OPTION, isDryRun, printDryRun } from '../cli/dry-run.js';
import { oneOf } from '../cli/input.js';
import type { CommandSpec } from '../cli/spec.js';

export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ApiMethod = (typeof API_METHODS)[number];
const API_FORMATS = ['json', 'ndjson'] as const;

export interface Field {
  key: string;
  /** The text after "=", as typed. */
  raw: string;
  /** The JSON value for a body: typed (-F) or always a string (-f). */
  value: unknown;
  /** "key[]=v": always an array, even with one value. */
  array: boolean;
}

/** Like gh's -F: true, false, null and plain numbers become JSON values; anything else stays a string. */
export function typedValue(raw: string): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) {
    const n = Number(raw);
    // Integers past 2^53 would lose digits as JSON numbers: keep them as text.
    if (Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n))) return n;
  }
  return raw;
}

export function parseField(text: string, typed: boolean): Field {
  const eq = text.indexOf('=');
  const rawKey = eq < 0 ? '' : text.slice(0, eq).trim();
  const array = rawKey.endsWith('[]');
  const key = array ? rawKey.slice(0, -2) : rawKey;
  if (!key) throw new UsageError(`Invalid field "${text}": expected key=value`);
  const raw = text.slice(eq + 1);
  return { key, raw, value: typed ? typedValue(raw) : raw, array };
}

/** Fields as query parameters: repeated keys (and key[]) become repeated parameters. */
export function fieldsToQuery(fields: readonly Field[], base: Query = {}): Query {
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined && v !== null) query[k] = Array.isArray(v) ? v.map(String) : String(v);
  }
  for (const f of fields) {
    const prev = query[f.key];
    if (prev === undefined) query[f.key] = f.array ? [f.raw] : f.raw;
    else query[f.key] = [...(Array.isArray(prev) ? prev : [prev]), f.raw];
  }
  return query;
}

/** Fields as a JSON object body: repeated keys (and key[]) become arrays. */
export function fieldsToBody(fields: readonly Field[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const prev = body[f.key];
    if (!(f.key in body)) body[f.key] = f.array ? [f.value] : f.value;
    else body[f.key] = [...(Array.isArray(prev) ? prev : [prev]), f.value];
  }
  return body;
}

/** "/people?domains=a.com" -> the path and its query (repeated keys kept as arrays). */
export function splitPath(value: string): { path: string; query: Query } {
  const text = value.trim();
  if (!text.startsWith('/')) {
    throw new UsageError(`PATH must start with "/" (a path under the base URL), got "${value}"`);
  }
  if (/\s|#/.test(text)) throw new UsageError(`PATH must not contain spaces or "#", got "${value}"`);
  const q = text.indexOf('?');
  const path = q < 0 ? text : text.slice(0, q);
  const query: Record<string, string | string[]> = {};
  if (q >= 0) {
    for (const [k, v] of new URLSearchParams(text.slice(q + 1))) {
      const prev = query[k];
      query[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
    }
  }
  return { path, query };
}

export interface ApiRequestPlan {
  method: ApiMethod;
  path: string;
  query: Query;
  body?: unknown;
}

/**
 * Where fields go (as in gh): fields or --input switch the default method to POST (not with
 * --paginate, which pages GET requests); with GET, or next to an --input body, fields are query
 * parameters; otherwise they make the JSON body.
 */
export function planRequest(input: {
  path: string;
  method?: string;
  fields: Field[];
  inputBody?: { value: unknown };
  paginate: boolean;
}): ApiRequestPlan {
  const { path, query } = splitPath(input.path);
  const hasData = input.fields.length > 0 || input.inputBody !== undefined;
  const method =
    input.method === undefined
      ? hasData && !input.paginate
        ? 'POST'
        : 'GET'
      : oneOf(input.method, API_METHODS, '--method');
  if (input.paginate && method !== 'GET') {
    throw new UsageError(`--paginate follows pages of GET requests, not ${method}`);
  }
  if (method === 'GET' && input.inputBody !== undefined) {
    throw new UsageError(
      '--input sends a body, which GET requests do not have: add --method POST, PUT or PATCH',
    );
  }
  if (method === 'GET' || input.inputBody !== undefined) {
    return { method, path, query: fieldsToQuery(input.fields, query), body: input.inputBody?.value };
  }
  return { method, path, query, body: input.fields.length ? fieldsToBody(input.fields) : undefined };
}

async function readInput(ctx: Context, file: string): Promise<{ value: unknown }> {
  let text: string;
  if (file === '-') {
    text = '';
    ctx.io.in.setEncoding('utf8');
    for await (const chunk of ctx.io.in) text += chunk;
  } else {
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read --input "${file}": ${(err as Error).message}`);
    }
  }
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    const where = file === '-' ? 'stdin' : `"${file}"`;
    throw new UsageError(`--input ${where} is not valid JSON: ${(err as Error).message}`);
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

export const apiCommand: CommandSpec = {
  name: 'api',
  summary: 'Send any request to the API (same auth, retries, pacing and pagination)',
  description:
    'Send a request to PATH under the base URL and print the response body as JSON (indented on a ' +
    'terminal, one line when piped; --format ndjson prints an array one element per line).\n' +
    'Like `gh api`: --field/--raw-field or --input make the default method POST (GET with ' +
    '--paginate). With GET (or ' +
    'next to --input) fields are query parameters; otherwise they form a JSON object body. ' +
    '--field types true, false, null and numbers; --raw-field keeps strings. Repeat a key, or write ' +
    'key[]=value, for an array. --paginate follows Link rel="next" and prints every item of every ' +
    'page as one JSON array (or ndjson). HTTP errors exit with the usual codes (3, 4, 5, 1).',
  args: [
    {
      name: 'PATH',
      description: 'endpoint path, e.g. /people or "/action-items?status=ALL"',
      required: true,
    },
  ],
  options: [
    {
      flags: '-X, --method <method>',
      description: `${API_METHODS.join('|')} (default: GET, or POST with --field/--input unless --paginate)`,
      choices: API_METHODS,
    },
    {
      flags: '-F, --field <key=value>',
      description: 'a parameter, typed: numbers, true, false, null (repeatable)',
      repeatable: true,
    },
    {
      flags: '-f, --raw-field <key=value>',
      description: 'a string parameter (repeatable)',
      repeatable: true,
    },
    { flags: '--input <file>', description: 'the JSON request body from FILE, or - for stdin' },
    { flags: '--paginate', description: 'GET: follow every next page and print all items as one array' },
    { ...DRY_RUN_OPTION, description: 'print the request it would send (method, path, body); send nothing' },
  ],
  examples: [
    'mtg api /people --paginate',
    'mtg api /action-items -X GET -F assigneeType=Anyone -F status=ALL',
    'mtg api /tag -F name=Hiring -f description="Interview loops" --dry-run',
  ],
  async run(ctx, args, opts) {
    const fields = [
      ...strings(opts.field).map((f) => parseField(f, true)),
      ...strings(opts.rawField).map((f) => parseField(f, false)),
    ];
    const format = ctx.globals.format ?? 'json';
    if (!(API_FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(
        `Invalid --format "${format}" for mtg api. Valid values: ${API_FORMATS.join(', ')}`,
      );
    }
    const inputFile = typeof opts.input === 'string' ? opts.input : undefined;
    // Checked before --input is read, so a usage mistake never waits on stdin.
    const plan = planRequest({
      path: String(args.PATH ?? ''),
      method: typeof opts.method === 'string' ? opts.method : undefined,
      fields,
      inputBody: inputFile === undefined ? undefined : { value: undefined },
      paginate: !!opts.paginate,
    });
    if (inputFile !== undefined) plan.body = (await readInput(ctx, inputFile)).value;
    if (isDryRun(opts)) {
      // Pages after the first depend on the server's answers: there is no honest list of them.
      if (opts.paginate) throw new UsageError('--dry-run cannot list the pages of --paginate');
      return printDryRun(ctx, [plan]);
    }
    const { writerSetup } = await import('../cli/list.js');
    const setup = await writerSetup(ctx, 'raw', format as 'json' | 'ndjson');
    const client = await ctx.client();
    try {
      await setup.out.withOutput(ctx.io.out, ctx.globals.output, async (stream) => {
        if (opts.paginate) return writePages(ctx, client, plan, stream, setup);
        const res = await client.request({
          method: plan.method,
          path: plan.path,
          query: plan.query,
          body: plan.body,
        });
        await writeBody(stream, res.data, setup, !!ctx.io.out.isTTY && !ctx.globals.output);
      });
    } finally {
      ctx.progress.stop();
    }
    return 0;
  },
};

type Setup = Awaited<ReturnType<typeof import('../cli/list.js').writerSetup>>;
type Client = Awaited<ReturnType<Context['client']>>;

async function writePages(
  ctx: Context,
  client: Client,
  plan: ApiRequestPlan,
  stream: NodeJS.WritableStream,
  { out, view, options }: Setup,
): Promise<void> {
  const { paginatePages } = await import('../api/paginate.js');
  const { z } = await import('zod');
  const writer = out.createItemWriter(stream, view, options);
  try {
    const pages = paginatePages(client, {
      path: plan.path,
      query: plan.query,
      item: z.unknown(),
      limit: ctx.globals.limit,
    });
    for await (const page of pages) {
      await writer.writeMany(page.items);
      ctx.progress.update(`Fetched ${out.counted(writer.count, 'item')}, page ${page.number}`);
    }
    await writer.end();
  } catch (err) {
    await writer.abort().catch(() => undefined);
    throw err;
  }
}

/** One response body: json (indented on a terminal), or ndjson (an array one element per line). */
async function writeBody(
  stream: NodeJS.WritableStream,
  data: unknown,
  { out, view, options }: Setup,
  pretty: boolean,
): Promise<void> {
  if (data === undefined) return; // an empty body (204)
  if (options.format === 'ndjson' && Array.isArray(data)) {
    const writer = out.createItemWriter(stream, view, options);
    await writer.writeMany(data);
    await writer.end();
    return;
  }
  const project = (v: unknown) => (options.fields ? out.project(v, options.fields) : v);
  const value = Array.isArray(data) ? data.map(project) : project(data);
  const { stringifyExact } = await import('../api/exact.js');
  const text = stringifyExact(value, pretty && options.format === 'json' ? 2 : undefined);
  stream.write(`${text}\n`);
}
