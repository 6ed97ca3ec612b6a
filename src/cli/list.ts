// The shared path of every list command: validate output options before sending anything, page
// through the endpoint, stream items to the writer, show progress, honor --limit and --checkpoint,
// and leave the output well-formed whatever happens.

import { unlink } from 'node:fs/promises';
import type { Listing, ReadSource } from '../api/read-source.js';
import { counted } from '../output/text.js';
import type { ResourceName } from '../output/views.js';
import { ExitCode, UsageError } from '../shared/errors.js';
import {
  checkpointFiles,
  fileExists,
  readCheckpoint,
  removeCheckpoint,
  writeCheckpoint,
} from './checkpoint.js';
import type { Context } from './context.js';
import { beforeSince, hasWindow, inWindow, type TimeWindow } from './dates.js';
import { JqRuntimeError } from './jq.js';
import { type AppendTarget, type OutputPlan, planOutput } from './output-plan.js';

export interface ListCommand<T> {
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

/**
 * The output plan and the listing. The output module and the source (for the API: settings, the
 * client's chunk, the paginator) load at once rather than one after the other, so their file reads
 * overlap and the first request leaves sooner. Nothing is sent before both are here, and they are
 * awaited in the old order, so a bad --fields is still reported before a missing key or mirror.
 */
async function planAndListing<T>(ctx: Context, spec: ListCommand<T>) {
  const planned = planOutput(ctx, spec.resource);
  const listingReady = ctx.source().then(async (source) => {
    const listing = spec.listing(source);
    await listing.ready();
    return listing;
  });
  listingReady.catch(() => undefined); // reported below, unless an earlier error wins
  const plan = await planned;
  const listing = await listingReady.catch(async (err) => {
    // Ctrl-C while the source was being set up (a key being read from the credential store, the
    // mirror opening): exit 130's stdout is still a document, the empty list's ("[]"). A file
    // would only be made and removed again; a --checkpoint file is left as the last run left it.
    if (ctx.signal.aborted && plan.destination === undefined) {
      await (await plan.open().catch(() => undefined))?.abort();
    }
    throw err;
  });
  return { plan, listing };
}

/**
 * A record of a finished export: its run stopped after the last page but before the file was
 * complete (json's closing "]", the rename onto FILE) or before the record was removed. Completes
 * what is left; a partial file already renamed onto FILE is not there any more.
 */
async function finishRecorded(
  ctx: Context,
  plan: OutputPlan,
  append: AppendTarget,
  checkpoint: string,
): Promise<number> {
  if (append.finalTarget === undefined || (await fileExists(append.path))) {
    const output = await plan.open(append);
    try {
      await output.commit();
    } catch (err) {
      await output.abort();
      throw err;
    }
  }
  await removeCheckpoint(checkpoint);
  ctx.progress.note(
    `Checkpoint ${checkpoint} says this export already finished (${counted(append.items, 'item')}).`,
  );
  return ExitCode.ok;
}

export async function runList<T>(ctx: Context, spec: ListCommand<T>): Promise<number> {
  const { globals } = ctx;
  if (globals.checkpoint && !globals.output) {
    throw new UsageError('--checkpoint needs -o/--output FILE: a resumed export appends to that file');
  }
  if (globals.checkpoint && ctx.offline) {
    throw new UsageError(
      '--checkpoint resumes exports from the API; an offline read sends nothing to resume',
    );
  }
  const { plan, listing } = await planAndListing(ctx, spec);

  const signature = JSON.stringify([
    spec.command,
    ...(listing.describe as unknown[]),
    plan.format,
    plan.fields,
    plan.destination,
    plan.limit,
    ...(spec.window ? [spec.window.bounds.given] : []),
  ]);
  const resume = globals.checkpoint ? await readCheckpoint(globals.checkpoint, signature) : undefined;
  // With --checkpoint the rows go to a partial file beside -o FILE, renamed onto it when complete.
  const files = globals.checkpoint
    ? await checkpointFiles(globals.output!, globals.checkpoint, resume)
    : undefined;
  const append = files && { ...files, bytes: resume?.bytes ?? 0, items: resume?.items ?? 0 };
  if (resume && resume.next === null) return finishRecorded(ctx, plan, append!, globals.checkpoint!);
  const output = await plan.open(append);
  const { writer, sink } = output;
  const already = resume?.items ?? 0;
  if (resume)
    ctx.progress.note(`Resuming from checkpoint: ${counted(already, ...spec.noun)} already written.`);

  let more = false;
  // A page recorded in the checkpoint: its rows are what the partial file is kept for.
  let recorded = !!resume;
  // Set once every page is in: a failure after that (the output, --jq) did not stop the fetching.
  let fetched = false;
  // --limit counts the whole export: what a resumed run already wrote counts too.
  const limit = plan.limit === undefined ? undefined : Math.max(0, plan.limit - already);
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
      await output.write(page.items);
      more = page.more;
      const total = already + writer.count;
      ctx.progress.update(`Fetched ${counted(total, ...spec.noun)}, page ${page.number}`);
      if (globals.checkpoint) {
        await sink.flush();
        // At --limit the export is complete too: no next page (a crash before the checkpoint goes finishes it).
        const complete = stop || (limit !== undefined && writer.count >= limit);
        await writeCheckpoint(globals.checkpoint, {
          version: 2,
          signature,
          next: complete ? null : (page.next?.href ?? null),
          items: total,
          bytes: sink.bytesWritten,
          partial: files!.path,
        });
        recorded = true;
      }
      if (stop) break;
    }
    fetched = true;
    await output.commit();
  } catch (err) {
    ctx.progress.stop();
    await output.abort();
    // Stopped before a first page was recorded: nothing to resume, so no partial file is left.
    if (files && !recorded) await unlink(files.path).catch(() => undefined);
    const total = already + writer.count;
    // --jq failing on the document is jq's error alone: nothing failed to write.
    if (total > 0 && !ctx.globals.quiet && !(err instanceof JqRuntimeError)) {
      ctx.progress.line(
        fetched
          ? `Fetched ${more ? 'the first ' : 'all '}${counted(total, ...spec.noun)}; writing the output failed.`
          : `Stopped after ${counted(total, ...spec.noun)}` +
              (globals.checkpoint
                ? `; run the same command again to resume from ${globals.checkpoint} (the rows so far are in ${files!.path}).`
                : '.'),
      );
    }
    throw err;
  }
  ctx.progress.stop();
  if (globals.checkpoint) await removeCheckpoint(globals.checkpoint);
  const total = already + writer.count;
  if (total === 0) ctx.progress.note(`No ${spec.noun[1]} found.`);
  else if (more && plan.limit !== undefined) {
    ctx.progress.note(
      `Showing the first ${counted(total, ...spec.noun)}; more exist (raise --limit to see them).`,
    );
  }
  return ExitCode.ok;
}
