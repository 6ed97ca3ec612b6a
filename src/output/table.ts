// The human table: borderless columns (like `gh`), fitted to the terminal width, one line per
// row, every server string sanitized. Rows are buffered until end() (fine for humans).
// cli-table3 is imported lazily so the other formats do not pay for loading it.

import { sanitizeOneLine } from '../shared/sanitize.js';
import { cellText } from './cells.js';
import { createChalk } from './color.js';
import { fieldsOfValue, getPath, isPlainObject } from './fields.js';
import { writeChunk, writeNoWait } from './stream.js';
import { humanDate, humanDuration, shortDate, textWidth, truncate } from './text.js';
import type { ItemWriter, ResourceView, WriterOptions } from './types.js';

const DEFAULT_WIDTH = 80;
const GAP = 2; // spaces between columns
const MIN_COL = 4;
const HUMAN_KEYS = ['name', 'title', 'email', 'domain', 'url', 'id'];

/** Cell text for people: arrays of objects by a readable key (tags by name), joined with ", ". */
/** A column of timestamps ("createdAt", "at"): printed for people, and shorter when space is short. */
const isDateColumn = (column: string): boolean => {
  const last = column.slice(column.lastIndexOf('.') + 1);
  return /At$/.test(last) || last === 'at';
};

/**
 * The short form of a date cell as humanDate printed it: "2025-06-01 13:11" (local time) becomes
 * "5 months ago"; a relative one ("3 days ago") is short already, and any other text stays.
 */
function shortOf(cell: string, now?: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/.exec(cell);
  if (!m) return cell;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  return shortDate(new Date(y, mo - 1, d, h, mi).toISOString(), now);
}

function humanCell(value: unknown, view: ResourceView, column: string, now?: number): string {
  const last = column.slice(column.lastIndexOf('.') + 1);
  let v = value;
  // Times and durations for people (json/csv keep the raw values): "3 days ago", "33m 16s".
  if (typeof v === 'string' && isDateColumn(column)) return humanDate(sanitizeOneLine(v), now);
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

/**
 * Which columns give way first when a table is wider than the terminal, as a person would choose:
 * long free text (names, titles, descriptions, notes, tags) first, widest first, so each keeps a
 * fair share; then values that are copied whole (emails, links, lists of IDs); then short facts
 * (dates, durations, statuses, numbers). IDs never: a cut ID cannot be pasted into the next command.
 */
export enum GiveWay {
  never = 0,
  text = 1,
  copied = 2,
  facts = 3,
}

// Identifier columns are never cut: a truncated ID cannot be copied into the next command.
const ID_COLUMNS = new Set(['id', 'domain']);
// Copied whole into another command or a browser: emails, links, (lists of) IDs.
const COPIED = /(^email|Email|^url|Url|^id|Ids?|^externalLinks)$/;
const FACTS = /(At|^at|^duration|^status|^access|^timestamp|^seq|^run|^resource|^change|^rank|^in)$/;

/** How a column gives way (by its last path segment: `assignee.name` is a name). */
export function giveWayOf(column: string): GiveWay {
  const last = column.slice(column.lastIndexOf('.') + 1);
  if (ID_COLUMNS.has(column)) return GiveWay.never;
  if (FACTS.test(last)) return GiveWay.facts;
  if (COPIED.test(last)) return GiveWay.copied;
  return GiveWay.text;
}

/**
 * Column widths that fit `total`: columns give way in the order of their rank (GiveWay), each rank
 * down to MIN_COL before the next is touched; within a rank the widest columns give way first
 * (water-filling), and a column keeps its header's width (`floors`) while others of its rank can
 * still give. Rank 0 (IDs) keeps its width even when the line is then too wide. Columns without a
 * rank give way as text.
 */
export function fitWidths(
  natural: readonly number[],
  total: number,
  ranks: readonly GiveWay[] = [],
  floors: readonly number[] = [],
): number[] {
  const n = natural.length;
  const widths = [...natural];
  let excess = widths.reduce((a, b) => a + b, 0) + GAP * (n - 1) - total;
  const header = (i: number) => Math.max(MIN_COL, Math.min(natural[i] ?? 0, floors[i] ?? 0));
  for (const rank of [GiveWay.text, GiveWay.copied, GiveWay.facts]) {
    const members = widths.map((_, i) => i).filter((i) => (ranks[i] ?? GiveWay.text) === rank);
    for (const floor of [header, () => MIN_COL]) {
      if (excess <= 0) return widths;
      excess -= shrink(widths, members, excess, floor);
    }
  }
  return widths;
}

/** Cuts up to `excess` columns from `members`, widest first, none below its floor; returns how many. */
function shrink(widths: number[], members: number[], excess: number, floor: (i: number) => number): number {
  let cut = 0;
  while (cut < excess) {
    // The widest members above their floor give way, down to the next widest (or their floor).
    const open = members.filter((i) => (widths[i] ?? 0) > floor(i));
    if (open.length === 0) break;
    const top = Math.max(...open.map((i) => widths[i] ?? 0));
    const widest = open.filter((i) => widths[i] === top);
    const next = Math.max(0, ...open.filter((i) => (widths[i] ?? 0) < top).map((i) => widths[i] ?? 0));
    for (const i of widest) {
      if (cut >= excess) break;
      const target = Math.max(next, floor(i));
      const step = Math.min(top - target, Math.ceil((excess - cut) / widest.length), excess - cut);
      widths[i] = top - step;
      cut += step;
    }
  }
  return cut;
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
async function render(
  headers: string[],
  full: string[][],
  width: number,
  paint: Paint,
  head: Paint,
  short?: (row: number, column: number) => string | undefined,
) {
  const { default: Table } = await import('cli-table3');
  const naturalOf = (rows: string[][]) => {
    const natural = headers.map((h) => textWidth(h));
    for (const r of rows) {
      for (let i = 0; i < natural.length; i++) natural[i] = Math.max(natural[i] ?? 0, textWidth(r[i] ?? ''));
    }
    return natural;
  };
  let rows = full;
  let natural = naturalOf(rows);
  // Too wide: dates take their short form ("3 weeks ago") before any name or title is cut, since
  // a cut name is lost while a relative date still says when.
  if (short && natural.reduce((a, b) => a + b, 0) + GAP * (headers.length - 1) > width) {
    rows = full.map((r, y) => r.map((c, x) => short(y, x) ?? c));
    natural = naturalOf(rows);
  }
  const widths = fitWidths(
    natural,
    width,
    headers.map(giveWayOf),
    headers.map((h) => textWidth(h)),
  );
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

/** Whether `path` or an object on its way was sent (`assignee: null` answers `assignee.name`). */
function wasSent(item: unknown, path: string): boolean {
  let at: unknown = item;
  for (const key of path.split('.')) {
    if (!isPlainObject(at) || !(key in at)) return false;
    at = at[key];
    if (at === null) return true;
  }
  return true;
}

export function tableWriter(out: NodeJS.WritableStream, view: ResourceView, opts: WriterOptions): ItemWriter {
  let columns: string[] | undefined;
  const rows: string[][] = []; // only the cell text of the shown columns is kept, not the items
  // Which default columns any item carried at all (null counts: "unassigned" is an answer). A
  // column the server sent for no item (the assignee of an update's response) is left out rather
  // than shown blank, which would read as a value; columns named by --fields always stay.
  const sent: boolean[] = [];
  let closed = false;
  const add = (item: unknown): void => {
    if (closed) throw new Error('write after end');
    columns ??= tableColumns(view, opts, item);
    const cols = columns;
    if (!isPlainObject(item) && cols[0] === 'value') {
      rows.push([humanCell(item, view, 'value', opts.now)]);
      sent[0] = true;
      return;
    }
    rows.push(
      cols.map((c, i) => {
        const value = getPath(item, c);
        if (value !== undefined || wasSent(item, c)) sent[i] = true;
        return humanCell(value, view, c, opts.now);
      }),
    );
  };
  /** The columns to print and the rows cut to them. */
  const shown = (cols: string[]): { headers: string[]; cells: string[][] } => {
    if (opts.fields && opts.fields.length > 0) return { headers: cols, cells: rows };
    const keep = cols.map((_, i) => sent[i] === true || ID_COLUMNS.has(cols[i] ?? ''));
    if (keep.every(Boolean) || !keep.some(Boolean)) return { headers: cols, cells: rows };
    return {
      headers: cols.filter((_, i) => keep[i]),
      cells: rows.map((r) => r.filter((_, i) => keep[i])),
    };
  };
  const finish = async (interrupted: boolean): Promise<void> => {
    if (closed) return;
    closed = true;
    if (rows.length === 0 || !columns) return; // the caller reports "No … found." on stderr
    const { paint, head } = painters(view, opts.color);
    const { headers, cells } = shown(columns);
    const now = opts.now;
    const dates = headers.map(isDateColumn);
    const short = dates.some(Boolean)
      ? (y: number, x: number) => (dates[x] ? shortOf(cells[y]?.[x] ?? '', now) : undefined)
      : undefined;
    const chunks = await render(headers, cells, opts.width ?? DEFAULT_WIDTH, paint, head, short);
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
