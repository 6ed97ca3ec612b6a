// The output plan of a command: what it prints, how and where, decided once, before any request.
//
//   const plan = await planOutput(ctx, 'meeting');        // a bad --format or --fields: exit 2 here
//   ...fetch...
//   await plan.list(items);   // or plan.one(item), plan.document(text)
//
// Where each answer lives:
// - Which format by default: resolveFormat() below. --format/--json when given; otherwise the
//   command's own default (transcript: text, api: json, watch: ndjson when piped), else table on a
//   terminal and tsv otherwise. -o FILE is data, not a screen: tsv even from a terminal.
// - Are colors on: screenColor() below. Never into -o FILE; else io.color.out, decided once per run
//   (src/cli/io.ts colorEnabled: --no-color, NO_COLOR, FORCE_COLOR, TERM=dumb, then the TTY).
// - Where --limit acts: plan.list() stops after --limit items and says whether more were there;
//   the sources are handed the same number (plan.limit) so that they stop fetching early: runList
//   (cli/list.ts) gives it to the paginator, sql/find/changes to their query. Commands without
//   LIST_OPTIONS or LIMIT_OPTIONS refuse --limit before anything runs (cli/program.ts).
// - Where the data goes: stdout, or -o FILE written atomically (output/sink.ts). Every document the
//   plan opens goes through plan.stage, the --jq stage when --jq is given (src/cli/jq.ts builds it;
//   main.ts compiles the expression first, before any request).
//
// list(), one() and document() own the writer's life: open, commit on success, abort on failure
// (an -o file is left as it was; a json array is closed so that stdout stays one valid document).

import { type FieldsView, OutputUsageError, parseFields } from '../output/fields.js';
import { createItemWriter, writeOne } from '../output/index.js';
import { type OutputSink, type OutputStage, openAppendOutput, openOutput } from '../output/sink.js';
import { writeChunk } from '../output/stream.js';
import {
  defaultFormat,
  FORMATS,
  type Format,
  type ItemWriter,
  type ResourceView,
  type WriterOptions,
} from '../output/types.js';
import { type ResourceName, viewFor } from '../output/views.js';
import { UsageError } from '../shared/errors.js';
import type { Context } from './context.js';
import { outputWidth } from './io.js';
import { outputStage } from './output-document.js';

/** How many items list() hands the writer at once (one write call per batch). */
const BATCH = 500;

export interface PlanOptions<F extends string> {
  /** The formats the command prints (default: table, json, ndjson, csv, tsv). */
  formats?: readonly F[];
  /** The format when none is given, on a terminal and elsewhere (default: table and tsv). */
  defaults?: { terminal: F; pipe: F };
  /** Changes to the resource's view (columns of a table, the columns of a query). */
  view?: Partial<ResourceView>;
  /** Never color (text that is meant to be copied, such as config values). */
  plain?: boolean;
  /** How a wrong --format message names the command (default: "this command"). */
  what?: string;
  /** The formats --fields applies to (default: all); in the others it is neither checked nor used. */
  fieldsIn?: readonly F[];
}

/** An open list output: for callers that write in steps (checkpointed exports, batch writes). */
export interface OpenList {
  readonly writer: ItemWriter;
  readonly sink: OutputSink;
  write(items: readonly unknown[]): Promise<void>;
  /** Finish the document and keep it (the file replaces its target). */
  commit(): Promise<void>;
  /** Finish the document without keeping an -o file (a json array on stdout is still closed). */
  discard(): Promise<void>;
  /** Failure or interruption: as discard(), never throws; a failure before the first item writes nothing. */
  abort(): Promise<void>;
}

/** Where a checkpointed export appends, and the file it becomes on commit (see list.ts). */
export interface AppendTarget {
  path: string;
  bytes: number;
  items: number;
  /** Renamed onto on commit; undefined: `path` is the final file (a version 1 checkpoint). */
  finalTarget?: string;
}

export interface OutputPlan<F extends string = Format> {
  readonly format: F;
  /** --fields, validated against the view. */
  readonly fields: string[] | undefined;
  readonly view: ResourceView;
  /** Colors for text meant for people on stdout. */
  readonly color: boolean;
  /** Columns to fit: COLUMNS, else the terminal's, else 80 (src/cli/io.ts outputWidth). */
  readonly width: number;
  /** The time relative dates count from (ms; io.now(), fixed in tests). */
  readonly now: number;
  /** Stdout is a terminal and there is no -o: a person reads what is printed. */
  readonly screen: boolean;
  /** -o FILE, or undefined for stdout. */
  readonly destination: string | undefined;
  /** What every document passes through on its way to the destination: --jq, else nothing. */
  readonly stage: OutputStage | undefined;
  /** --limit. */
  readonly limit: number | undefined;
  /** The table format and no --fields: the page meant for people, where a command has one. */
  readonly readable: boolean;
  /** What the writers are given (format, fields, color, width, csv details). */
  readonly options: WriterOptions;
  /** Writes every item (up to --limit); returns how many, and whether more were there. */
  list(
    items: Iterable<unknown> | AsyncIterable<unknown>,
    columns?: Partial<ResourceView>,
  ): Promise<{ count: number; more: boolean }>;
  /** One object: json indented, ndjson a line, csv/tsv one row, a table key/value lines. */
  one(item: unknown): Promise<void>;
  /** Text the command rendered itself (a page, subtitles, a JSON document), or a function writing it. */
  document(text: string | ((stream: NodeJS.WritableStream) => Promise<void>)): Promise<void>;
  /** Opens the list output (a checkpointed export: append to `path` after `bytes`, `items` already written). */
  open(resume?: AppendTarget, columns?: Partial<ResourceView>): Promise<OpenList>;
}

function resolveFormat<F extends string>(ctx: Context, options: PlanOptions<F>): F {
  const allowed: readonly string[] = options.formats ?? FORMATS;
  // A file is data, not a screen: -o gets the pipe default even from a terminal.
  const screen = !!ctx.io.out.isTTY && !ctx.globals.output;
  const format =
    ctx.globals.format ??
    (options.defaults ? options.defaults[screen ? 'terminal' : 'pipe'] : defaultFormat(screen));
  if (!allowed.includes(format)) {
    throw new UsageError(
      `Invalid --format "${format}" for ${options.what ?? 'this command'}. Valid values: ${allowed.join(', ')}`,
    );
  }
  return format as F;
}

/** Colors on stdout for people (decided once, src/cli/io.ts): never into an -o file. */
function screenColor(ctx: Context): boolean {
  return !ctx.globals.output && ctx.io.color.out;
}

/** --fields checked against a view's fields (`mtg sql`: the statement's columns). */
export function resolveFields(ctx: Context, view: FieldsView): string[] | undefined {
  if (ctx.globals.fields === undefined) return undefined;
  try {
    return parseFields(ctx.globals.fields, view);
  } catch (err) {
    // One line on stderr ("unknown field ...; valid fields: ..."), like every other usage error.
    if (err instanceof OutputUsageError) throw new UsageError(err.message.replace(/\s*\n\s*/g, '; '));
    throw err;
  }
}

function isWriterFormat(format: string): format is Format {
  return (FORMATS as readonly string[]).includes(format);
}

/**
 * The plan of a command's output, resolved before anything is sent: an unknown --format or
 * --fields is exit 2 here.
 */
export async function planOutput<const F extends string = Format>(
  ctx: Context,
  resource: ResourceName,
  planOptions: PlanOptions<F> = {},
): Promise<OutputPlan<F>> {
  const format = resolveFormat(ctx, planOptions);
  const view = { ...viewFor(resource), ...planOptions.view };
  const fields =
    !planOptions.fieldsIn || planOptions.fieldsIn.includes(format) ? resolveFields(ctx, view) : undefined;
  const color = !planOptions.plain && screenColor(ctx);
  const width = outputWidth(ctx.io, ctx.env);
  const destination = ctx.globals.output;
  const stage = await outputStage(ctx);
  const options: WriterOptions = {
    format: isWriterFormat(format) ? format : 'json',
    fields,
    rawCells: ctx.globals.rawCells,
    bom: ctx.globals.bom,
    color,
    width,
    now: ctx.io.now().getTime(),
  };
  const writerFormat = (): Format => {
    if (!isWriterFormat(format)) throw new Error(`format ${format} has no item writer`);
    return format;
  };

  const open = async (resume?: AppendTarget, columns?: Partial<ResourceView>): Promise<OpenList> => {
    writerFormat();
    const sink = resume
      ? await openAppendOutput(resume.path, resume.bytes, { finalTarget: resume.finalTarget })
      : await openOutput(ctx.io.out, destination, stage);
    const writer = createItemWriter(sink.stream, columns ? { ...view, ...columns } : view, {
      ...options,
      continueAfter: resume?.items ?? 0,
    });
    return {
      writer,
      sink,
      write: (items) => writer.writeMany(items),
      async commit() {
        await writer.end();
        await sink.commit();
      },
      async discard() {
        await writer.end();
        await sink.abort();
      },
      async abort() {
        // Ctrl-C (exit 130) leaves a well-formed document even before the first item: "[]".
        await writer.abort(ctx.signal.aborted).catch(() => undefined);
        await sink.abort().catch(() => undefined);
      },
    };
  };

  /** Opens the destination, runs `write`, keeps the result only when it succeeds. */
  const whole = async (write: (stream: NodeJS.WritableStream) => Promise<void>): Promise<void> => {
    const sink = await openOutput(ctx.io.out, destination, stage);
    try {
      await write(sink.stream);
      await sink.commit();
    } catch (err) {
      await sink.abort().catch(() => undefined);
      throw err;
    }
  };

  const limit = ctx.globals.limit;
  return {
    format,
    fields,
    view,
    color,
    width,
    now: options.now ?? ctx.io.now().getTime(),
    screen: !!ctx.io.out.isTTY && !destination,
    destination,
    stage,
    limit,
    readable: format === 'table' && fields === undefined,
    options,
    open,
    async list(items, columns) {
      const out = await open(undefined, columns);
      let more = false;
      try {
        let batch: unknown[] = [];
        let taken = 0;
        for await (const item of items) {
          if (limit !== undefined && taken >= limit) {
            more = true;
            break;
          }
          batch.push(item);
          taken++;
          if (batch.length === BATCH) {
            await out.write(batch);
            batch = [];
          }
        }
        await out.write(batch);
        await out.commit();
      } catch (err) {
        await out.abort();
        throw err;
      }
      return { count: out.writer.count, more };
    },
    one: (item) => whole((stream) => writeOne(stream, item, view, { ...options, format: writerFormat() })),
    document: (text) => whole(typeof text === 'string' ? (stream) => writeChunk(stream, text) : text),
  };
}
