// --dry-run on every command that changes something: the requests the command would send, built by
// the same functions as the real run (src/api/endpoints.ts), printed instead of sent. Nothing is
// sent, so neither an API key nor a base URL is needed; every input is still validated first.

import type { WriteRequest } from '../api/endpoints.js';
import { buildQuery } from '../api/url.js';
import { ExitCode } from '../shared/errors.js';
import { stringifyExact } from '../shared/exact.js';
import type { Context } from './context.js';
import type { OptionDecl } from './declare.js';

export const DRY_RUN_OPTION = {
  flags: '--dry-run',
  description: 'print the requests it would send (method, path, JSON body) and send nothing',
} as const satisfies OptionDecl;

export function isDryRun(opts: Record<string, unknown>): boolean {
  return opts.dryRun === true;
}

/** What a dry run shows of a request: method, path (with its query) and body; never the schema. */
export interface PlannedRequest {
  method: string;
  path: string;
  body?: unknown;
}

export function plannedRequest(
  req: Pick<WriteRequest, 'method' | 'path' | 'query' | 'body'>,
): PlannedRequest {
  const search = req.query ? buildQuery(req.query).toString() : '';
  return {
    method: req.method,
    path: search ? `${req.path}?${search}` : req.path,
    ...(req.body !== undefined ? { body: req.body } : {}),
  };
}

/**
 * Print every request (stdout or -o): with --json an array of {method, path, body}, with --format
 * ndjson one per line, otherwise one line each, "METHOD PATH BODY". Returns exit code 0.
 */
export async function printDryRun(
  ctx: Context,
  requests: readonly Pick<WriteRequest, 'method' | 'path' | 'query' | 'body'>[],
): Promise<number> {
  const planned = requests.map(plannedRequest);
  let text: string;
  if (ctx.globals.format === 'json') {
    text = `${stringifyExact(planned, ctx.io.out.isTTY && !ctx.globals.output ? 2 : undefined)}\n`;
  } else if (ctx.globals.format === 'ndjson') {
    text = planned.map((r) => `${stringifyExact(r)}\n`).join('');
  } else {
    const { sanitizeForTerminal } = await import('../shared/sanitize.js');
    const lines = planned.map(
      (r) => `${r.method} ${r.path}${r.body === undefined ? '' : ` ${stringifyExact(r.body)}`}\n`,
    );
    // The paths and bodies hold the user's own input; still, a terminal gets no control sequences.
    text = ctx.io.out.isTTY && !ctx.globals.output ? sanitizeForTerminal(lines.join('')) : lines.join('');
  }
  const { writeDocument } = await import('./output-document.js');
  await writeDocument(ctx, text);
  const { counted } = await import('../output/text.js');
  ctx.progress.note(`Dry run: ${counted(planned.length, 'request')} not sent.`);
  return ExitCode.ok;
}
