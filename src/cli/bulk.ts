// The shared runner of batch commands (action-items update, tags apply): a bounded pool of workers
// over a list of items. The ApiClient's one RateLimiter paces the requests; the pool only bounds how
// many are in flight, so a large batch neither floods the server nor runs one request at a time.

import { ApiError, RateLimitExhaustedError } from '../api/errors.js';
import type { ResourceName } from '../output/views.js';
import { ExitCode, exitCodeOf, InterruptedError, MtgError } from '../shared/errors.js';
import { sanitizeOneLine } from '../shared/sanitize.js';
import type { Context } from './context.js';

/**
 * Requests in flight at once. Eight keeps a batch well inside the Pro plan's 20 requests per
 * second (the limiter paces anything beyond) and below the client's 16 connections.
 */
export const DEFAULT_BULK_CONCURRENCY = 8;

/**
 * Hidden knob, not in --help: MTG_CONCURRENCY=N overrides the default pool size. bench/run.mjs
 * uses MTG_CONCURRENCY=1 to time a batch one request at a time against the concurrent default.
 */
function concurrencyFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env.MTG_CONCURRENCY;
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

/** How a write answered 2xx without a body is reported: applied, with nothing more to print. */
export const NO_BODY = 'the server returned no body';

export type BulkResult<R> =
  | { status: 'ok'; value: R }
  | { status: 'failed'; error: unknown }
  /**
   * Never finished: Ctrl-C came before it was sent, while it waited for its turn or waited out a 429
   * (`sent: false`: nothing applied), or while it was in flight, or between tries after an answer
   * that does not say it was refused (`sent: true`: it may have been applied).
   */
  | { status: 'skipped'; sent: boolean }
  /** Never sent: an item before it met a rejected key (401/403), which every request after would meet too. */
  | { status: 'stopped' };

export interface BulkOptions<R> {
  /** Workers running at once (default DEFAULT_BULK_CONCURRENCY; runBulkCommand: MTG_CONCURRENCY too). */
  concurrency?: number;
  /** Once aborted, no new item is started; items not started are 'skipped'. */
  signal?: AbortSignal;
  /** Called once per item in INPUT order, as soon as it and every item before it have settled. */
  onResult?: (result: BulkResult<R>, index: number) => void | Promise<void>;
}

/** Run `worker` over `items`, at most `concurrency` at a time; results come back in input order. */
export async function runBulk<T, R>(
  items: readonly T[],
  worker: (item: T, index: number) => Promise<R>,
  options: BulkOptions<R> = {},
): Promise<BulkResult<R>[]> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_BULK_CONCURRENCY));
  const { signal } = options;
  const results: (BulkResult<R> | undefined)[] = new Array(items.length).fill(undefined);
  let nextToStart = 0;
  let nextToEmit = 0;
  // Emissions are chained so onResult calls never overlap and keep input order.
  let emitting: Promise<void> = Promise.resolve();

  const emitReady = (): void => {
    emitting = emitting.then(async () => {
      while (nextToEmit < items.length && results[nextToEmit] !== undefined) {
        const index = nextToEmit++;
        await options.onResult?.(results[index]!, index);
      }
    });
  };

  const settle = (index: number, result: BulkResult<R>): void => {
    results[index] = result;
    emitReady();
  };

  // A rejected key (exit 3) is the same for every item: the rest are not sent (a Free plan's batch of
  // 500 would otherwise wait 25 minutes to be refused 500 times). A 401 says so at once; a 403 may be
  // about one item (a meeting this key may not change), so it takes two.
  let keyRejected = false;
  let forbidden = 0;
  const lane = async (): Promise<void> => {
    while (nextToStart < items.length) {
      if (signal?.aborted || keyRejected) return;
      const index = nextToStart++;
      try {
        settle(index, { status: 'ok', value: await worker(items[index]!, index) });
      } catch (error) {
        const interrupted = signal?.aborted || error instanceof InterruptedError;
        // The client says whether what it cut off may have reached the server; any other error
        // after Ctrl-C is taken as maybe applied.
        const sent = !(error instanceof InterruptedError) || error.sent;
        if (!interrupted && exitCodeOf(error) === ExitCode.auth)
          keyRejected ||= !(error instanceof ApiError && error.status === 403) || ++forbidden >= 2;
        settle(index, interrupted ? { status: 'skipped', sent } : { status: 'failed', error });
      }
    }
  };

  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  for (let i = 0; i < items.length; i++)
    if (results[i] === undefined)
      settle(i, keyRejected ? { status: 'stopped' } : { status: 'skipped', sent: false });
  emitReady();
  await emitting;
  return results as BulkResult<R>[];
}

export interface BulkSummary {
  total: number;
  ok: number;
  /** Refused by the server (or failed otherwise), not counting `notSent`. */
  failed: number;
  /** Held back by the rate limit past --max-wait, or not sent after a rejected key: never applied, safe to send again. */
  notSent: number;
  /** Cut off by Ctrl-C. */
  skipped: number;
}

/** An item the rate limit held back past --max-wait (or whose 429s outlasted it): not sent, not failed. */
function heldBack(
  result: BulkResult<unknown>,
): result is { status: 'failed'; error: RateLimitExhaustedError } {
  return result.status === 'failed' && result.error instanceof RateLimitExhaustedError;
}

export function summarize(results: readonly BulkResult<unknown>[]): BulkSummary {
  const count = (s: BulkResult<unknown>['status']) => results.filter((r) => r.status === s).length;
  const heldBackCount = results.filter(heldBack).length;
  return {
    total: results.length,
    ok: count('ok'),
    failed: count('failed') - heldBackCount,
    notSent: heldBackCount + count('stopped'),
    skipped: count('skipped'),
  };
}

/**
 * The contract's exit code of a batch: 0 when all applied; 130 when interrupted; 5 when the rate
 * limit held any item back past --max-wait (exit 6 is for items the server refused, never for the
 * limit); 6 when some failed and others applied; when every one failed, the first failure's own
 * code (4 when all were not found, 3 on a rejected key), so a batch of one exits like a single
 * request would; 3 when a rejected key stopped the batch.
 */
export function bulkExitCode(results: readonly BulkResult<unknown>[]): number {
  const { ok, failed, notSent, skipped } = summarize(results);
  if (skipped > 0) return ExitCode.interrupted;
  if (results.some((r) => r.status === 'stopped')) return ExitCode.auth;
  if (notSent > 0) return ExitCode.rateLimited;
  if (failed === 0) return ExitCode.ok;
  if (ok > 0) return ExitCode.partial;
  const first = results.find((r) => r.status === 'failed') as { error: unknown };
  return exitCodeOf(first.error);
}

/** One line for a failed item: the message and any validation issues. */
export function failureText(error: unknown): string {
  if (error instanceof MtgError) {
    return error.details.length ? `${error.message} (${error.details.join('; ')})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * What became of an item that was not applied, as the json/ndjson output of a batch says it, beside
 * the applied items (the server's objects, as before). `id` is the item's own, so that
 * `select(.outcome)` piped back to `--stdin` sends exactly what was not applied (docs/scripting.md):
 * - `failed`: the server refused it, or it was interrupted after it may have been sent;
 * - `not-sent`: never applied and safe to send again: `--max-wait` ran out before its turn (or the
 *   server's 429s outlasted it), Ctrl-C came before it was sent or while it waited out a 429, or
 *   the server rejected the key (401/403) for an item before it (`key-rejected`).
 */
export type ItemOutcome =
  | { outcome: 'failed'; error: { message: string; status?: number; code?: string } }
  | { outcome: 'not-sent'; reason: 'max-wait' | 'interrupted' | 'key-rejected' };

/** The outcome record of an item not applied, or undefined for an applied one. */
export function outcomeOf(result: BulkResult<unknown>): ItemOutcome | undefined {
  if (result.status === 'ok') return undefined;
  if (result.status === 'stopped') return { outcome: 'not-sent', reason: 'key-rejected' };
  if (result.status === 'skipped') {
    return result.sent
      ? { outcome: 'failed', error: { message: 'interrupted after it was sent: it may have been applied' } }
      : { outcome: 'not-sent', reason: 'interrupted' };
  }
  if (result.error instanceof RateLimitExhaustedError) return { outcome: 'not-sent', reason: 'max-wait' };
  const { error } = result;
  return {
    outcome: 'failed',
    error: {
      message: failureText(error),
      ...(error instanceof ApiError
        ? { status: error.status, ...(error.code ? { code: error.code } : {}) }
        : {}),
    },
  };
}

/** Where a batch command writes the items that were applied: the list writer, in input order. */
export interface ItemOutput {
  /** json or ndjson: the outcome of each item not applied is written too. */
  readonly outcomes: boolean;
  write(items: readonly unknown[]): Promise<void>;
  /** Finish the document; with -o, the file is kept only when something was applied. */
  finish(keep: boolean): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Validate --format/--fields for a command that changes something, before it sends anything: an
 * output mistake must not surface after the change was made.
 */
export async function checkOutputOptions(ctx: Context, resource: ResourceName): Promise<void> {
  await (await import('./output-plan.js')).planOutput(ctx, resource);
}

/**
 * Validate --format/--fields before anything is sent (a bad --fields is exit 2 with nothing sent),
 * and open the output: an -o file at once (a file that cannot be opened fails before any request),
 * stdout at the first applied item, so that a batch where every item failed prints no csv/tsv
 * header. json still prints its one document, an empty array.
 */
export async function openItemOutput(ctx: Context, resource: ResourceName): Promise<ItemOutput> {
  const plan = await (await import('./output-plan.js')).planOutput(ctx, resource);
  let output = plan.destination === undefined ? undefined : await plan.open();
  const opened = async () => {
    output ??= await plan.open();
    return output;
  };
  return {
    outcomes: plan.format === 'json' || plan.format === 'ndjson',
    write: async (items) => (await opened()).write(items),
    finish: async (keep) => {
      if (keep) return (await opened()).commit();
      if (output || plan.format === 'json') await (await opened()).discard();
    },
    abort: async () => output?.abort(),
  };
}

/** IDs a summary line lists before it refers to the machine-readable output for the rest. */
const LISTED_IDS = 20;

/**
 * How to send what --max-wait held back (the contract: feed exactly the rest back to --stdin): the
 * outcome entries with json/ndjson, else the IDs themselves (the first LISTED_IDS).
 */
function resumeHint<T>(
  notSent: readonly T[],
  keys: (item: T) => readonly Record<string, unknown>[],
  outcomes: boolean,
  again = 'or allow a longer --max-wait',
): string {
  if (outcomes) return `to send them, feed the entries with "outcome":"not-sent" back to --stdin, ${again}`;
  const ids = notSent.flatMap((item) => keys(item).map((key) => String(key.id)));
  const more = ids.length - LISTED_IDS;
  const listed =
    more > 0
      ? `${ids.slice(0, LISTED_IDS).join(' ')} … (${more} more: --format ndjson lists each)`
      : ids.join(' ');
  return `to send them, pass these IDs again (--stdin reads them): ${listed}; ${again}`;
}

/** How to send again what a rejected key stopped: those it refused (401/403) and those not sent after them. */
function keyRejectedHint<T>(
  items: readonly T[],
  keys: (item: T) => readonly Record<string, unknown>[],
  outcomes: boolean,
) {
  const again = 'once the key is mended (mtg auth status)';
  const hint = outcomes
    ? `to send them, feed the entries with "outcome" (refused 401/403, or not sent) back to --stdin ${again}`
    : resumeHint(items, keys, false, again);
  return `The API key was rejected, so the rest were not sent; ${hint}`;
}

/** What a batch command says about its work; runBulkCommand does the rest. */
export interface BulkCommand<T, R> {
  /** The work items (IDs, or batches of IDs), validated before anything is sent. */
  items: readonly T[];
  /** The view used to print applied results on stdout. */
  resource: ResourceName;
  worker: (item: T, index: number) => Promise<R>;
  /** What goes to stdout for an applied item. */
  printed: (value: R) => readonly unknown[];
  /** What names an item in its outcome record (json/ndjson), as `--stdin` reads it back: `{ id }`. */
  keys: (item: T) => readonly Record<string, unknown>[];
  /** The stderr line for a failed item. */
  failureLine: (item: T, index: number, message: string) => string;
  /** Spinner text once `settled` items are done, `applied` of them successfully. */
  progressText: (settled: number, applied: readonly R[]) => string;
  /** The closing line on stderr. */
  summaryLine: (summary: BulkSummary, applied: readonly R[]) => string;
}

/**
 * The shared life of a batch command: open the output before sending anything, run the workers,
 * print applied results in input order and each failure as it settles, close the output (an -o file
 * is kept only when something applied), print the summary, and return the contract's exit code.
 */
export async function runBulkCommand<T, R>(ctx: Context, spec: BulkCommand<T, R>): Promise<number> {
  const output = await openItemOutput(ctx, spec.resource);
  const applied: R[] = [];
  // Items the rate limit held back past --max-wait: said once in the summary, not one line each.
  const notSent: T[] = [];
  let notSentReason: string | undefined;
  // Items not sent after a rejected key: the same, once the key is mended.
  const stopped: T[] = [];
  const keyRefused: T[] = [];
  let settled = 0;
  let results: BulkResult<R>[];
  try {
    results = await runBulk(spec.items, spec.worker, {
      concurrency: concurrencyFromEnv(ctx.env),
      signal: ctx.signal,
      onResult: async (result, index) => {
        settled++;
        if (result.status === 'ok') {
          applied.push(result.value);
          await output.write(spec.printed(result.value));
        } else if (heldBack(result)) {
          notSent.push(spec.items[index]!);
          notSentReason ??= result.error.message;
        } else if (result.status === 'stopped') {
          stopped.push(spec.items[index]!);
        } else if (result.status === 'failed') {
          if (exitCodeOf(result.error) === ExitCode.auth) keyRefused.push(spec.items[index]!);
          // The message may hold server text (an error envelope): sanitized before the terminal sees it.
          ctx.progress.line(
            sanitizeOneLine(spec.failureLine(spec.items[index]!, index, failureText(result.error))),
          );
        }
        const outcome = output.outcomes ? outcomeOf(result) : undefined;
        if (outcome) await output.write(spec.keys(spec.items[index]!).map((key) => ({ ...key, ...outcome })));
        ctx.progress.update(spec.progressText(settled, applied));
      },
    });
  } catch (err) {
    ctx.progress.stop();
    await output.abort();
    throw err;
  }
  ctx.progress.stop();
  const summary = summarize(results);
  await output.finish(summary.ok > 0);
  let line = spec.summaryLine(summary, applied);
  if (notSent.length > 0) line += `. ${notSentReason}; ${resumeHint(notSent, spec.keys, output.outcomes)}`;
  if (stopped.length > 0)
    line += `. ${keyRejectedHint([...keyRefused, ...stopped], spec.keys, output.outcomes)}`;
  // The reason may quote the server (a 429's message): sanitized before the terminal sees it.
  if (summary.failed || summary.notSent || summary.skipped) ctx.progress.line(sanitizeOneLine(line));
  else ctx.progress.note(line);
  return bulkExitCode(results);
}
