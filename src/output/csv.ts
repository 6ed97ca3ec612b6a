// csv and tsv. Both: header row, one row per item, LF line ends (friendlier to Unix tools; every
// csv reader accepts them), formula guard unless rawCells, data otherwise exact (no terminal
// sanitizing for files and pipes: they are data; a terminal gets the cells sanitized).
//  csv: RFC 4180 quoting: a cell with , " CR or LF is quoted and its quotes doubled.
//  tsv: no quoting, one line per item for cut/awk: backslash, tab, LF and CR inside a cell are
//       written as \\ \t \n \r (the "linear TSV" convention, so the data can be recovered), and
//       every other C0 control, DEL and C1 control as \xHH (its code point, as C, Python and
//       PostgreSQL's COPY read it): tsv is what a pipe gets by default, and `mtg … | head` must not
//       hand a terminal the server's ESC sequences raw (QA). Nothing is lost: each escape reads back.

import { sanitizeForTerminal } from '../shared/sanitize.js';
import { cellText, guardFormula } from './cells.js';
import { fieldsOfValue, getPath, isPlainObject } from './fields.js';
import type { Encoder } from './stream.js';
import type { ResourceView, WriterOptions } from './types.js';

const NEEDS_QUOTES = /[",\r\n]/;

export function csvQuote(cell: string): string {
  return NEEDS_QUOTES.test(cell) ? '"' + cell.replace(/"/g, '""') + '"' : cell;
}

const TSV_SPECIAL = /[\\\u0000-\u001f\u007f-\u009f]/g;
const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export function tsvEscape(cell: string): string {
  return cell.replace(
    TSV_SPECIAL,
    (c) => TSV_ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/** Columns of csv/tsv: --fields, else the view's flat columns, else all of its leaf fields. */
export function flatColumns(view: ResourceView, opts: WriterOptions): string[] | undefined {
  if (opts.fields && opts.fields.length > 0) return opts.fields;
  if (view.flatColumns && view.flatColumns.length > 0) return view.flatColumns;
  if (view.fields.length > 0) return view.fields;
  return undefined; // raw view: taken from the first item
}

export function flatEncoder(view: ResourceView, opts: WriterOptions): Encoder {
  const tsv = opts.format === 'tsv';
  const sep = tsv ? '\t' : ',';
  const encodeCell = tsv ? tsvEscape : csvQuote;
  let columns = flatColumns(view, opts);
  const resumed = (opts.continueAfter ?? 0) > 0;
  let headerDone = resumed;
  const labels = (columns ?? []).map((c) => labelFor(view, c));

  const line = (cells: string[]): string => {
    // A lone empty cell would be a blank line, which readers skip: write it as "" instead.
    if (cells.length === 1 && cells[0] === '' && !tsv) return '""\n';
    return cells.join(sep) + '\n';
  };
  const header = (): string => {
    headerDone = true;
    if (!columns) return '';
    const bom = opts.bom && !tsv ? '\uFEFF' : '';
    return bom + line(columns.map(encodeCell));
  };
  const cell = (value: unknown, label: string | undefined): string => {
    const raw = cellText(value, ';', label);
    // A terminal would interpret ESC/OSC in server text (clear the screen, plant a link).
    const text = opts.terminal ? sanitizeForTerminal(raw) : raw;
    return encodeCell(opts.rawCells ? text : guardFormula(text, value));
  };

  return {
    item(item, _index) {
      let head = '';
      if (!columns) {
        columns = isPlainObject(item) ? fieldsOfValue(item) : ['value'];
        if (columns.length === 0) columns = ['value'];
        labels.push(...columns.map((c) => labelFor(view, c)));
      }
      if (!headerDone) head = header();
      const cols = columns;
      const cells =
        cols.length === 1 && cols[0] === 'value' && !isPlainObject(item)
          ? [cell(item, undefined)]
          : cols.map((c, i) => cell(getPath(item, c), labels[i]));
      return head + line(cells);
    },
    finish() {
      return headerDone ? '' : header();
    },
  };
}

function labelFor(view: ResourceView, column: string): string | undefined {
  const last = column.slice(column.lastIndexOf('.') + 1);
  return view.arrayLabels?.[last];
}
