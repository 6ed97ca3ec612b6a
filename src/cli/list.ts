// The shared path of every list command: validate output options before sending anything, page
// through the endpoint, stream items to the writer, show progress, honor --limit and --checkpoint,
// and leave the output well-formed whatever happens.

import { UsageError } from '../api/errors.js';
import { defaultFormat } from '../output/types.js';
import type { ResourceName } from '../output/views.js';
import { readCheckpoint, removeCheckpoint, writeCheckpoint } from './checkpoint.js';
import type { Context } from './context.js';
import { beforeSince, hasWindow, inWindow, type TimeWindow } from './dates.js';
import { LIST_FORMATS, type ListFormat } from './globals.js';
import { type Listing, type ReadSource, readSource } from './source.js';

type Output = typeof import('../output/index.js');

export async function loadOutput(): Promise<Output> {
  return import('../output/index.js');
}

/** --format/--json (or the TTY default), checked against the formats a command supports. */
export function chooseFormat(ctx: Context, allowed: readonly string[] = LIST_FORMATS): string {
  // A file is data, not a screen: -o gets tsv by default even from a terminal.
  const format = ctx.globals.format ?? defaultFormat(!!ctx.io.stdout.isTTY && !ctx.globals.output);
  if (!allowed.includes(format)) {
    throw new UsageError(
      `Invalid --format "${format}" for this command. Valid values: ${allowed.join(', ')}`,
    );
  }
  return format;
}

/** Writer options for a resource, with --fields validated against it (exit 2 on an unknown field). */
export async function writerSetup(ctx: Context, resource: ResourceName, format: ListFormat) {
  const out = await loadOutput();
  const view = out.viewFor(resource);
  let fields: string[] | undefined;
  if (ctx.globals.fields !== undefined) {
    try {
      fields = out.parseFields(ctx.globals.fields, view);
    } catch (err) {
      // One line on stderr ("unknown field ...; valid fields: ..."), like every other usage error.
      if (err instanceof out.OutputUsageError) throw new UsageError(err.message.replace(/\s*\n\s*/g, '; '));
      throw err;
    }
  }
  const options = {
    format,
    fields,
    rawCells: ctx.globals.rawCells,
    bom: ctx.globals.bom,
    ...screenOptions(ctx, out.colorEnabled),
  };
  return { out, view, options };
}

/**
 * Colors and width for text meant for people on stdout: never colors into an -o file, and an
 * unsized pseudo-terminal (it reports 0 columns) gets the default width.
 */
export function screenOptions(
  ctx: Context,
  colorEnabled: Output['colorEnabled'],
): { color: boolean; width: number } {
  const color =
    !ctx.globals.output &&
    colorEnabled({ stream: ctx.io.stdout, noColorFlag: !ctx.globals.color, env: ctx.env });
  return { color, width: ctx.io.stdout.columns || 100 };
}

export interface ListSpec<T> {
  /** The listing, from the source --offline chose (the API or the mirror). */
  listing: (source: ReadSource) => Listing<T>;
  resource: ResourceName;
  /** The noun for progress and notes, singular and plural (["action item", "action items"]). */
  noun: readonly [one: string, many: string];
  /** Identifies the export in a checkpoint (command name; the query is added here). */
  command: string;
  /** --since/--until: keep only the items whose time (an ISO string) falls in the window. */
  window?: WindowFilter<T>;
}

export interface WindowFilter<T> {
  bounds: TimeWindow;
  /** The item's time, e.g. its createdAt. */
  time: (item: T) => string | undefined;
  /** The list is newest first: stop at the first page whose items are all before --since. */
  newestFirst?: boolean;
}

/**
 * One page through --since/--until. With a window, --limit counts the items kept, so the filter (not
 * the paginator) decides when enough were found; `stop` ends the fetching.
 */
function windowPage<T>(
  items: T[],
  filter: WindowFilter<T>,
  remaining: number,
): { items: T[]; stop: 'older' | 'limit' | undefined; extra: boolean } {
  const kept = items.filter((item) => inWindow(filter.time(item), filter.bounds));
  const taken = kept.length > remaining ? kept.slice(0, remaining) : kept;
  const olderPage =
    !!filter.newestFirst &&
    items.length > 0 &&
    items.every((i) => beforeSince(filter.time(i), filter.bounds));
  return {
    items: taken,
    stop: olderPage ? 'older' : taken.length >= remaining ? 'limit' : undefined,
    extra: taken.length < kept.length,
  };
}

export async function runList<T>(ctx: Context, spec: ListSpec<T>): Promise<number> {
  const format = chooseFormat(ctx) as ListFormat;
  const { globals } = ctx;
  if (globals.checkpoint && !globals.output) {
    throw new UsageError('--checkpoint needs -o/--output FILE: a resumed export appends to that file');
  }
  if (globals.checkpoint && ctx.offline) {
    throw new UsageError(
      '--checkpoint resumes exports from the API; an offline read sends nothing to resume',
    );
  }
  // The output module and the source (for the API: settings, the client's chunk, the paginator)
  // load at once rather than one after the other, so their file reads overlap and the first request
  // leaves sooner. Nothing is sent before both are here, and they are awaited in the old order, so
  // a bad --fields is still reported before a missing key or a missing mirror.
  const setup = writerSetup(ctx, spec.resource, format);
  const listingReady = readSource(ctx).then(async (source) => {
    const listing = spec.listing(source);
    await listing.ready();
    return listing;
  });
  listingReady.catch(() => undefined); // reported below, unless an earlier error wins
  const { out, view, options } = await setup;
  const listing = await listingReady;

  const signature = JSON.stringify([
    spec.command,
    ...(listing.describe as unknown[]),
    format,
    options.fields,
    globals.output,
    globals.limit,
    ...(spec.window ? [spec.window.bounds.given] : []),
  ]);
  const resume = globals.checkpoint ? await readCheckpoint(globals.checkpoint, signature) : undefined;
  if (resume && resume.next === null) {
    ctx.progress.note(
      `Checkpoint ${globals.checkpoint} says this export already finished (${out.counted(resume.items, 'item')}).`,
    );
    return 0;
  }
  const sink = globals.checkpoint
    ? await out.openAppendOutput(globals.output!, resume?.bytes ?? 0)
    : await out.openOutput(globals.output);
  const writer = out.createItemWriter(sink.stream, view, { ...options, continueAfter: resume?.items ?? 0 });
  const already = resume?.items ?? 0;
  if (resume)
    ctx.progress.note(`Resuming from checkpoint: ${out.counted(already, ...spec.noun)} already written.`);

  let more = false;
  // Set once every page is in: a failure after that (the output, --jq) did not stop the fetching.
  let fetched = false;
  const limit = globals.limit === undefined ? undefined : Math.max(0, globals.limit - already);
  const window = spec.window && hasWindow(spec.window.bounds) ? spec.window : undefined;
  try {
    const pages = listing.pages({
      startUrl: resume?.next ? new URL(resume.next) : undefined,
      limit: window ? undefined : limit,
    });
    for await (const page of pages) {
      let stop = false;
      if (window) {
        const kept = windowPage(page.items, window, (limit ?? Number.POSITIVE_INFINITY) - writer.count);
        // Past an all-older page nothing can match; at the limit more may (this page or the next).
        page.more = kept.stop === 'older' ? false : page.more || kept.extra;
        page.items = kept.items;
        stop = kept.stop !== undefined;
      }
      await writer.writeMany(page.items);
      more = page.more;
      const total = already + writer.count;
      ctx.progress.update(`Fetched ${out.counted(total, ...spec.noun)}, page ${page.number}`);
      if (globals.checkpoint) {
        await sink.flush();
        await writeCheckpoint(globals.checkpoint, {
          version: 1,
          signature,
          next: page.next?.href ?? null,
          items: total,
          bytes: sink.bytesWritten,
        });
      }
      if (stop) break;
    }
    fetched = true;
    await writer.end();
    await sink.commit();
  } catch (err) {
    ctx.progress.stop();
    await writer.abort().catch(() => undefined);
    await sink.abort().catch(() => undefined);
    const total = already + writer.count;
    if (total > 0 && !ctx.globals.quiet) {
      ctx.progress.line(
        fetched
          ? `Fetched ${more ? 'the first ' : 'all '}${out.counted(total, ...spec.noun)}; writing the output failed.`
          : `Stopped after ${out.counted(total, ...spec.noun)}` +
              (globals.checkpoint
                ? `; run the same command again to resume from ${globals.checkpoint}.`
                : '.'),
      );
    }
    throw err;
  }
  ctx.progress.stop();
  if (globals.checkpoint) await removeCheckpoint(globals.checkpoint);
  const total = already + writer.count;
  if (total === 0) ctx.progress.note(`No ${spec.noun[1]} found.`);
  else if (more && globals.limit !== undefined) {
    ctx.progress.note(
      `Showing the first ${out.counted(total, ...spec.noun)}; more exist (raise --limit to see them).`,
    );
  }
  return 0;
}

/** A single object result (create/update/view-as-data). */
export async function writeResult(ctx: Context, resource: ResourceName, item: unknown): Promise<void> {
  const format = chooseFormat(ctx) as ListFormat;
  const { out, view, options } = await writerSetup(ctx, resource, format);
  await out.withOutput(ctx.globals.output, (stream) => out.writeOne(stream, item, view, options));
}

/** A list of items in the chosen format (json array, ndjson lines, csv/tsv rows, table), to stdout or -o. */
export async function writeItems(
  ctx: Context,
  resource: ResourceName,
  format: ListFormat,
  items: readonly unknown[],
): Promise<void> {
  const { out, view, options } = await writerSetup(ctx, resource, format);
  const sink = await out.openOutput(ctx.globals.output);
  const writer = out.createItemWriter(sink.stream, view, options);
  try {
    await writer.writeMany(items);
    await writer.end();
    await sink.commit();
  } catch (err) {
    await writer.abort().catch(() => undefined);
    await sink.abort().catch(() => undefined);
    throw err;
  }
}
