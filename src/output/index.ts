/**
 * The output layer: the command layer hands items (JSON values exactly as the API sent them)
 * to a writer chosen by --format.
 *
 *   const view = viewFor('actionItem');
 *   const fields = opts.fields ? parseFields(opts.fields, view) : undefined;   // OutputUsageError -> exit 2
 *   const sink = await openOutput(io.out, opts.output);                         // stdout or atomic file
 *   const w = createItemWriter(sink.stream, view, { format, fields, color, width, bom, rawCells });
 *   for await (const page of pages) await w.writeMany(page);                   // backpressure-aware
 *   await w.end(); await sink.commit();                                          // on SIGINT: w.abort(true); sink.abort()
 *
 * Formats:
 *  - json: one array written as items arrive ("[\n" item ",\n" item "\n]\n"; "[]\n" when empty);
 *    items byte-exact (JSON.stringify, key order kept). writeOne() prints one object, 2-space indented.
 *  - ndjson: one compact object per line.
 *  - With --fields, json/ndjson items become objects keyed by the requested paths, flat and in
 *    order ({"id":1,"assignee.name":"Ann"}); missing values are null.
 *  - csv: header + rows, LF line ends, RFC 4180 quoting; tsv: no quoting, \\ \t \n \r escaped so
 *    one item is one line. Nested values by dotted path, arrays joined with ";" (tags by name,
 *    other objects as JSON). Formula guard: a text cell starting with = + - @ TAB CR gets "'"
 *    (not number values; off with rawCells). No terminal sanitizing: data stays exact.
 *    Header is written even for an empty list. bom: U+FEFF first (csv only).
 *  - table: buffered, rendered at end() with cli-table3 (lazily imported), fitted to `width`,
 *    sanitized, one line per row; nothing at all for an empty list.
 */
import { flatEncoder } from './csv.js';
import { jsonEncoder, ndjsonEncoder, toJson } from './json.js';
import { streamWriter, writeChunk } from './stream.js';
import { tableWriter, writeKeyValue } from './table.js';
import type { ItemWriter, ResourceView, WriterOptions } from './types.js';

export { sanitizeForTerminal, sanitizeOneLine } from '../shared/sanitize.js';
export { cellText, guardFormula } from './cells.js';
export { createChalk } from './color.js';
export { csvQuote, tsvEscape } from './csv.js';
export { fieldsOfSchema, fieldsOfValue, getPath, OutputUsageError, parseFields, project } from './fields.js';
export { toJson } from './json.js';
export { type OutputSink, type OutputStage, openAppendOutput, openOutput } from './sink.js';
export { counted, humanCount, truncate } from './text.js';
export {
  defaultFormat,
  type Format,
  type ItemWriter,
  type ResourceView,
  type WriterOptions,
} from './types.js';
export { type ResourceName, viewFor } from './views.js';

/** csv/tsv onto a terminal are shown to a person: mark them so cells are sanitized. */
function onScreen(out: NodeJS.WritableStream, opts: WriterOptions): WriterOptions {
  return (out as { isTTY?: boolean }).isTTY ? { ...opts, terminal: true } : opts;
}

export function createItemWriter(
  out: NodeJS.WritableStream,
  view: ResourceView,
  opts: WriterOptions,
): ItemWriter {
  switch (opts.format) {
    case 'json':
      return streamWriter(out, jsonEncoder(opts), opts.continueAfter);
    case 'ndjson':
      return streamWriter(out, ndjsonEncoder(opts), opts.continueAfter);
    case 'csv':
    case 'tsv':
      return streamWriter(out, flatEncoder(view, onScreen(out, opts)), opts.continueAfter);
    case 'table':
      return tableWriter(out, view, opts);
  }
}

/**
 * A single object (e.g. the result of `tags create`): json one object (not an array), ndjson one
 * line, csv/tsv header + one row, table a two-column key/value list.
 */
export async function writeOne(
  out: NodeJS.WritableStream,
  item: unknown,
  view: ResourceView,
  opts: WriterOptions,
): Promise<void> {
  switch (opts.format) {
    case 'json':
      return writeChunk(out, toJson(item, opts.fields, 2) + '\n');
    case 'ndjson':
      return writeChunk(out, toJson(item, opts.fields) + '\n');
    case 'csv':
    case 'tsv': {
      const enc = flatEncoder(view, { ...onScreen(out, opts), continueAfter: 0 });
      return writeChunk(out, enc.item(item, 0));
    }
    case 'table':
      return writeKeyValue(out, item, view, opts);
  }
}
