// mtg api: any request to the API with the same auth, retries, pacing and pagination as the other
// commands (after `gh api`). For endpoints the CLI has no command for, and for debugging.

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { paginatePages } from '../../api/paginate.js';
import type { Context } from '../../cli/context.js';
import { isDryRun, printDryRun } from '../../cli/dry-run.js';
import { type OutputPlan, planOutput } from '../../cli/output-plan.js';
import { defineRun } from '../../cli/spec.js';
import { counted, createItemWriter, project } from '../../output/index.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import { stringifyExact } from '../../shared/exact.js';
import { type ApiRequestPlan, parseField, planRequest } from './request.js';
import * as spec from './spec.js';

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
  // An empty body is never what was meant (an empty pipe, a file not written yet): nothing is sent.
  if (text.trim() === '') {
    const source = file === '-' ? '- (stdin)' : `"${file}"`;
    throw new UsageError(`--input ${source} is empty: give the JSON body to send; nothing was sent`);
  }
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    const where = file === '-' ? 'stdin' : `"${file}"`;
    throw new UsageError(`--input ${where} is not valid JSON: ${(err as Error).message}`);
  }
}

export const run = defineRun(spec.api, async (ctx, args, opts) => {
  const fields = [
    ...opts.field.map((f) => parseField(f, true)),
    ...opts.rawField.map((f) => parseField(f, false)),
  ];
  const output = await planOutput(ctx, 'raw', {
    formats: spec.API_FORMATS,
    defaults: { terminal: 'json', pipe: 'json' },
    what: 'mtg api',
  });
  // One response body is not a list of items: --limit counts the items of --paginate's pages.
  if (output.limit !== undefined && !opts.paginate) throw new UsageError('--limit needs --paginate');
  const inputFile = opts.input;
  // Checked before --input is read, so a usage mistake never waits on stdin.
  const plan = planRequest({
    path: args.PATH,
    method: opts.method,
    fields,
    inputBody: inputFile === undefined ? undefined : { value: undefined },
    paginate: opts.paginate,
  });
  if (inputFile !== undefined) plan.body = (await readInput(ctx, inputFile)).value;
  if (isDryRun(opts)) {
    // Pages after the first depend on the server's answers: there is no honest list of them.
    if (opts.paginate) throw new UsageError('--dry-run cannot list the pages of --paginate');
    return printDryRun(ctx, [plan]);
  }
  const client = await ctx.client();
  try {
    await output.document(async (stream) => {
      if (opts.paginate) return writePages(ctx, client, plan, stream, output);
      const res = await client.request({
        method: plan.method,
        path: plan.path,
        query: plan.query,
        body: plan.body,
      });
      await writeBody(stream, res.data, output);
    });
  } finally {
    ctx.progress.stop();
  }
  return ExitCode.ok;
});

type Client = Awaited<ReturnType<Context['client']>>;
type Output = OutputPlan<(typeof spec.API_FORMATS)[number]>;

async function writePages(
  ctx: Context,
  client: Client,
  plan: ApiRequestPlan,
  stream: NodeJS.WritableStream,
  output: Output,
): Promise<void> {
  const writer = createItemWriter(stream, output.view, output.options);
  try {
    const pages = paginatePages(client, {
      path: plan.path,
      query: plan.query,
      item: z.unknown(),
      limit: output.limit,
    });
    for await (const page of pages) {
      await writer.writeMany(page.items);
      ctx.progress.update(`Fetched ${counted(writer.count, 'item')}, page ${page.number}`);
    }
    await writer.end();
  } catch (err) {
    // Ctrl-C (exit 130): a well-formed document, "[]" before the first page, as plan.open's lists.
    await writer.abort(ctx.signal.aborted).catch(() => undefined);
    throw err;
  }
}

/** One response body: json (indented on a terminal), or ndjson (an array one element per line). */
async function writeBody(stream: NodeJS.WritableStream, data: unknown, output: Output): Promise<void> {
  if (data === undefined) return; // an empty body (204)
  if (output.format === 'ndjson' && Array.isArray(data)) {
    const writer = createItemWriter(stream, output.view, output.options);
    await writer.writeMany(data);
    await writer.end();
    return;
  }
  const fields = output.fields;
  const shown = (v: unknown) => (fields ? project(v, fields) : v);
  const value = Array.isArray(data) ? data.map(shown) : shown(data);
  const text = stringifyExact(value, output.screen && output.format === 'json' ? 2 : undefined);
  stream.write(`${text}\n`);
}
