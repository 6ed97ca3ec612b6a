// The human table: borderless columns (like `gh`), fitted to the terminal width, one line per
// row, every server string sanitized. Rows are buffered until end() (fine for humans).
// cli-table3 is imported lazily so the other formats do not pay for loading it.
import { cellText } from './cells.js';
import { createChalk } from './color.js';
import { fieldsOfValue, getPath, isPlainObject } from './fields.js';
import { sanitizeOneLine } from './sanitize.js';
import { writeChunk, writeNoWait } from './stream.js';
import { humanDate, humanDuration, textWidth, truncate } from './text.js';
import type { ItemWriter, ResourceView, WriterOptions } from './types.js';

const DEFAULT_WIDTH = 100;
const GAP = 2; // spaces between columns
const MIN_COL = 4;
const HUMAN_KEYS = ['name', 'title', 'email', 'domain', 'url', 'id'];
// Identifier columns are never cut: a truncated ID cannot be copied into the next command.
const ID_COLUMNS = new Set(['id', 'domain']);

/** Cell text for people: arrays of objects by a readable key (tags by name), joined with ", ". */
function humanCell(value: unknown, view: ResourceView, column: string, now?: number): string {
  const last = column.slice(column.lastIndexOf('.') + 1);
  let v = value;
  // Times and durations for people (json/csv keep the raw values): "3 days ago", "33m 16s".
  if (typeof v === 'string' && (/At$/.test(last) || last === 'at')) return humanDate(sanitizeOneLine(v), now);
  if (typeof v === 'number' && last === 'duration') return humanDuration(v);
  if (Array.isArray(v)) {
    const label = view.arrayLabels?.[last];
    v = v.map((e) => (isPlainObject(e) ? (label !== undefined ? e[label] : humanLabel(e)) : e));
  }
  return sanitizeOneLine(cellText(v, ', '));
}

function humanLabel(o: Record<string, unknown>): unknown {
  for (const k of HUMAN_KEYS) {
    const v = o[k];
    if (typeof v === 'string' || typeof v === 'number') return v;
  }
  return JSON.stringify(o);
}

/** Columns at most this wide (dates, durations, statuses) keep their width while text gives way. */
const COMPACT = 16;

/**
 * Column widths that fit `total`: pinned columns (IDs) keep their full width, then short columns
 * (dates, durations) while there is room; the widest text columns give way first (water-filling),
 * down to MIN_COL.
 */
export function fitWidths(
  natural: readonly number[],
  total: number,
  pinned: readonly boolean[] = [],
): number[] {
  const n = natural.length;
  const avail = total - GAP * (n - 1);
  if (natural.reduce((a, b) => a + b, 0) <= avail) return [...natural];
  const sum = (idx: number[]) => idx.reduce((a, i) => a + (natural[i] ?? 0), 0);
  const all = natural.map((_, i) => i);
  const fixed = all.filter((i) => pinned[i]);
  let compact = all.filter((i) => !pinned[i] && (natural[i] ?? 0) <= COMPACT);
  let text = all.filter((i) => !pinned[i] && (natural[i] ?? 0) > COMPACT);
  if (sum(fixed) + sum(compact) + MIN_COL * text.length > avail) {
    text = [...compact, ...text];
    compact = [];
  }
  const widths = [...natural];
  let remaining = avail - sum(fixed) - sum(compact);
  const sorted = [...text].sort((x, y) => (natural[x] ?? 0) - (natural[y] ?? 0));
  for (let k = 0; k < sorted.length; k++) {
    const i = sorted[k]!;
    const share = Math.floor(remaining / (sorted.length - k));
    const w = Math.max(Math.min(natural[i] ?? 0, MIN_COL), Math.min(natural[i] ?? 0, share));
    widths[i] = w;
    remaining -= w;
  }
  return widths;
}

type Paint = (text: string, column: string, raw: string) => string;

const NO_BORDERS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: ' '.repeat(GAP),
};
// cli-table3 slows down more than linearly with the row count; blocks of this many rows with the
// same fixed column widths line up exactly and keep a 100k-row table at a few seconds.
const BLOCK_ROWS = 200;

/** The table as text chunks (one per block of rows), so each can be written with backpressure. */
async function render(headers: string[], rows: string[][], width: number, paint: Paint, head: Paint) {
  const { default: Table } = await import('cli-table3');
  const natural = headers.map((h) => textWidth(h));
  for (const r of rows) {
    for (let i = 0; i < natural.length; i++) natural[i] = Math.max(natural[i] ?? 0, textWidth(r[i] ?? ''));
  }
  const pinned = headers.map((h) => ID_COLUMNS.has(h));
  const widths = fitWidths(natural, width, pinned);
  const clip = (s: string, i: number): string => truncate(s, widths[i] ?? MIN_COL);
  const chunks: string[] = [];
  for (let b = 0; b < rows.length; b += BLOCK_ROWS) {
    const table = new Table({
      ...(b === 0 ? { head: headers.map((h, i) => head(clip(h, i), h, h)) } : {}),
      colWidths: widths,
      chars: NO_BORDERS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
      wordWrap: false,
    });
    for (const row of rows.slice(b, b + BLOCK_ROWS)) {
      table.push(row.map((c, i) => paint(clip(c, i), headers[i] ?? '', c)));
    }
    // cli-table3 pads the last column; trailing blanks only get in the way of copy and paste.
    const lines = table.toString().split('\n');
    chunks.push(lines.map((l) => l.trimEnd()).join('\n') + '\n');
  }
  return chunks;
}

function painters(view: ResourceView, color: boolean): { paint: Paint; head: Paint } {
  const c = createChalk(color);
  const dim = new Set(view.dimColumns ?? []);
  const paint: Paint = (text, column, raw) => {
    if (!color) return text;
    if (column === 'status' || column.endsWith('.status')) {
      if (raw === 'DONE') return c.green(text);
      if (raw === 'PENDING') return c.yellow(text);
    }
    return dim.has(column) ? c.dim(text) : text;
  };
  const head: Paint = (text) => (color ? c.bold(text) : text);
  return { paint, head };
}

function tableColumns(view: ResourceView, opts: WriterOptions, first: unknown): string[] {
  if (opts.fields && opts.fields.length > 0) return opts.fields;
  if (view.tableColumns.length > 0) return view.tableColumns;
  if (view.fields.length > 0) return view.fields;
  return isPlainObject(first) ? fieldsOfValue(first).slice(0, 8) : ['value'];
}

export function tableWriter(out: NodeJS.WritableStream, view: ResourceView, opts: WriterOptions): ItemWriter {
  let columns: string[] | undefined;
  const rows: string[][] = []; // only the cell text of the shown columns is kept, not the items
  let closed = false;
  const add = (item: unknown): void => {
    if (closed) throw new Error('write after end');
    columns ??= tableColumns(view, opts, item);
    const cols = columns;
    rows.push(
      isPlainObject(item) || cols[0] !== 'value'
        ? cols.map((c) => humanCell(getPath(item, c), view, c, opts.now))
        : [humanCell(item, view, 'value', opts.now)],
    );
  };
  const finish = async (interrupted: boolean): Promise<void> => {
    if (closed) return;
    closed = true;
    if (rows.length === 0 || !columns) return; // the caller reports "No … found." on stderr
    const { paint, head } = painters(view, opts.color);
    const chunks = await render(columns, rows, opts.width ?? DEFAULT_WIDTH, paint, head);
    for (const text of chunks) {
      if (interrupted) writeNoWait(out, text);
      else await writeChunk(out, text);
    }
  };
  return {
    get count() {
      return rows.length;
    },
    async write(item) {
      add(item);
    },
    async writeMany(items) {
      for (const item of items) add(item);
    },
    end: () => finish(false),
    abort: () => finish(true), // show what was fetched before the interruption
  };
}

/** One object as a two-column key/value table; without --fields, absent optional fields are skipped. */
export async function writeKeyValue(
  out: NodeJS.WritableStream,
  item: unknown,
  view: ResourceView,
  opts: WriterOptions,
): Promise<void> {
  const explicit = opts.fields && opts.fields.length > 0;
  const keys = explicit
    ? opts.fields!
    : view.open || view.fields.length === 0
      ? fieldsOfValue(item)
      : view.fields;
  const rows = keys
    .filter((k) => explicit || getPath(item, k) !== undefined)
    .map((k) => [k, humanCell(getPath(item, k), view, k, opts.now)]);
  if (rows.length === 0) {
    if (!isPlainObject(item)) await writeChunk(out, sanitizeOneLine(cellText(item, ', ')) + '\n');
    return;
  }
  const { paint } = painters(view, opts.color);
  const bold = createChalk(opts.color).bold;
  // Keys are never truncated (a plain two-column layout; no cli-table3 needed): values get the rest.
  const keyWidth = Math.max(...rows.map((r) => textWidth(r[0] ?? '')));
  const valueWidth = Math.max(MIN_COL, (opts.width ?? DEFAULT_WIDTH) - keyWidth - GAP);
  const lines = rows.map(([k = '', v = '']) => {
    const key = bold(k) + ' '.repeat(keyWidth - textWidth(k) + GAP);
    return (key + paint(truncate(v, valueWidth), k, v)).trimEnd();
  });
  await writeChunk(out, lines.join('\n') + '\n');
}
