// Turning command-line words into validated values, before anything is sent. Every failure is a
// UsageError: one line, exit 2.

import { UsageError } from '../shared/errors.js';
import { type ExactId, isExactInteger, parseJsonExact } from '../shared/exact.js';

export type { ExactId };

/**
 * Repeatable options: one value per use and comma lists (--tag 3 --tag 7, --tag 3,7). An empty
 * value ("", ",", "3,,7", "3,") is exit 2 for every such option: never read as "no filter".
 */
export function listValues(value: unknown, what: string, valid?: readonly string[]): string[] {
  const raw = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const out: string[] = [];
  for (const given of raw) {
    for (const part of String(given).split(',')) {
      const trimmed = part.trim();
      if (trimmed === '') {
        const values = valid ? `values (${valid.join(', ')})` : 'values';
        throw new UsageError(
          `${what} needs ${values} separated by commas, none empty; got "${String(given)}"`,
        );
      }
      out.push(trimmed);
    }
  }
  return out;
}

/** commander collector for repeatable options. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A TCP port, 0 (any free port) to 65535: checked here, since listen() throws on others. */
export function port(value: string, what: string): number {
  const trimmed = value.trim();
  const n = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || n > 65535)
    throw new UsageError(`${what} must be a whole number from 0 to 65535, got "${value}"`);
  return n;
}

/** Seconds as a decimal number (--timeout 0.5); zero allowed only where `allowZero`. */
export function seconds(value: string, what: string, allowZero: boolean): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || (n === 0 && !allowZero)) {
    throw new UsageError(
      `${what} must be a number of seconds${allowZero ? ', 0 or more' : ' above 0'}, got "${value}"`,
    );
  }
  return n;
}

/** Match an enum value case-insensitively; the error lists the valid values. */
export function oneOf<T extends string>(value: string, allowed: readonly T[], what: string): T {
  const found = allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());
  if (!found) throw new UsageError(`Invalid ${what} "${value}". Valid values: ${allowed.join(', ')}`);
  return found;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function email(value: string): string {
  const trimmed = value.trim();
  if (!EMAIL.test(trimmed)) throw new UsageError(`Invalid email address "${value}"`);
  return trimmed;
}

/** The text piped into `--stdin`; a terminal is refused: nobody is typing `what` there. */
export async function readStdinText(
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
  what = 'IDs',
): Promise<string> {
  if (stdin.isTTY)
    throw new UsageError(`--stdin expects ${what} piped in, one per line (e.g. \`... | mtg ... --stdin\`)`);
  let text = '';
  stdin.setEncoding('utf8');
  for await (const chunk of stdin) text += chunk;
  return text;
}

/**
 * Read `--stdin`: IDs in any format mtg itself prints, so `mtg … list --json | mtg … --stdin` works
 * whatever the format (see parseStdinIds). Empty input is exit 2 (see stdinValues).
 */
export async function readStdinIds(
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
  what: string,
): Promise<string[]> {
  return stdinValues(parseStdinIds(await readStdinText(stdin)), what);
}

/**
 * The values read from `--stdin`, refused when there are none, even beside positional IDs: a pipe
 * that came up empty (a failed `list` upstream, `< /dev/null`) means the caller's list is lost,
 * not that the arguments alone were meant.
 */
export function stdinValues<T>(values: T[], what: string): T[] {
  if (values.length === 0) throw new UsageError(`stdin held no ${what}: nothing was sent`);
  return values;
}

/** How to read one kind of `--stdin` value out of the formats mtg prints. */
export interface StdinColumn<T> {
  /** Header names of the column holding it (csv/tsv), matched case-insensitively. */
  columns: readonly string[];
  /** The value of a JSON object (an element of a --json array, an ndjson line). */
  fromObject(value: Record<string, unknown>, where: string): T;
  /** The value of a cell, a bare line or an array element (already trimmed, not empty). */
  fromText(text: string, where: string): T;
}

const ID_COLUMN: StdinColumn<string> = {
  columns: ['id'],
  fromObject: (value, where) => idOfObject(value, where),
  fromText: (text) => text,
};

/** The IDs of a `--stdin` text (see parseStdinColumn), the column "id". */
export function parseStdinIds(input: string): string[] {
  return parseStdinColumn(input, ID_COLUMN);
}

/** "id", or "email" or "teamId": the column names as messages name them. */
const columnNames = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(' or ');

/**
 * The values of a `--stdin` text, the format told from the text itself:
 *  - a JSON array (`--json`): objects, or bare values;
 *  - csv or tsv: a first row with commas or tabs is a header that must hold one of the column's
 *    names, anywhere (`--format csv|tsv`), or the input is exit 2 naming the missing column (a
 *    header row read as values would send its field names and their values);
 *  - otherwise lines: an ndjson object, or a value; blank lines are skipped, and a lone header line.
 * `#` comment lines are skipped in every line format. A table (`--format table`) is for people: it
 * is refused with the formats to use instead.
 */
export function parseStdinColumn<T>(input: string, column: StdinColumn<T>): T[] {
  const text = input.replace(/^\uFEFF/, ''); // csv written with --bom
  const start = text.trimStart();
  if (start.startsWith('[')) return valuesOfJsonArray(text, column);
  if (start.startsWith('{') && text.trim().includes('\n')) {
    // One pretty-printed object (`… view --json` on a terminal) is not ndjson, but is one item.
    const whole = tryJson(text);
    if (isObject(whole)) return [column.fromObject(whole, 'stdin: the JSON object')];
  }
  const lines = text.split(/\r?\n/);
  const firstAt = lines.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  const first = firstAt < 0 ? '' : lines[firstAt]!;
  const formats = `one per line, ndjson, --json, or csv/tsv with an ${columnNames(column.columns)} column`;
  // A table's header row ("id  status  title", or a border): a value never holds a space.
  const tableHeader = new RegExp(`^\\s*(?:id|${column.columns.join('|')}) +\\S`, 'i');
  if (/^[\u2500-\u257f]/.test(start) || tableHeader.test(first))
    throw new UsageError(`--stdin cannot read a table: pipe ${formats} (e.g. --format tsv)`);
  if (first.trimStart().startsWith('{')) return lineValues(lines, column);
  const kind = first.includes('\t') ? 'tsv' : first.includes(',') ? 'csv' : undefined;
  if (!kind) return lineValues(lines, column);
  const records =
    kind === 'tsv'
      ? tsvRecords(lines, firstAt)
      : parseCsv(lines.slice(firstAt).join('\n'), firstAt + 1).filter(
          (r) => !(r.cells.length === 1 && r.cells[0] === ''),
        );
  const at = headerColumn(records[0]!.cells, column.columns);
  if (at < 0)
    throw new UsageError(
      `stdin: the ${kind} header row has no ${columnNames(column.columns)} column (pipe ${formats})`,
    );
  const name = records[0]!.cells[at]!.trim();
  return records.slice(1).map((r) => {
    const where = `stdin line ${r.line}`;
    const cell = unguard((r.cells[at] ?? '').trim());
    if (cell === '') throw new UsageError(`${where}: the "${name}" column is empty`);
    return withWhere(where, () => column.fromText(cell, where));
  });
}

/** A usage error that already says where on stdin the value was. */
class StdinValueError extends UsageError {}

/** Runs `read`, its usage error then naming where the value came from (once). */
function withWhere<T>(where: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof UsageError && !(err instanceof StdinValueError))
      throw new StdinValueError(`${where}: ${err.message}`);
    throw err;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function tryJson(text: string): unknown {
  try {
    return parseJsonExact(text);
  } catch {
    return undefined;
  }
}

/**
 * A JSON number as ID text. Integers beyond 2^53 arrive exact (an ExactInteger) when written as
 * digits; one written otherwise (90071992547409931.0, 1e17) was rounded by the parse, and its
 * digits would name another item: refused.
 */
export function jsonNumberText(value: number, where: string): string {
  if (Number.isSafeInteger(value)) return String(value);
  throw new UsageError(
    `${where}: ${value} is not a whole number that JSON carries exactly; write it as digits`,
  );
}

/** An "id" as the API sent it: a string, or a number (beyond 2^53 kept exact). */
function idOfObject(value: Record<string, unknown>, where: string): string {
  const id = value.id;
  if (typeof id === 'number') return jsonNumberText(id, where);
  if (typeof id === 'string' || isExactInteger(id)) return String(id);
  throw new UsageError(`${where} has no "id"`);
}

function valuesOfJsonArray<T>(text: string, column: StdinColumn<T>): T[] {
  let parsed: unknown;
  try {
    parsed = parseJsonExact(text);
  } catch (err) {
    throw new UsageError(`stdin starts with "[" but is not a valid JSON array: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new UsageError('stdin starts with "[" but is not a JSON array');
  return parsed.map((element, index) => {
    const where = `stdin: element ${index} of the JSON array`;
    if (typeof element === 'number') return column.fromText(jsonNumberText(element, where), where);
    if (typeof element === 'string' || isExactInteger(element))
      return withWhere(where, () => column.fromText(String(element).trim(), where));
    if (isObject(element)) return column.fromObject(element, where);
    throw new UsageError(`${where} is neither a value nor an object`);
  });
}

/** The index of the first of `names` in a header row, or -1 when the row has none of them. */
function headerColumn(cells: string[], names: readonly string[]): number {
  for (const name of names) {
    const at = cells.findIndex((c) => c.trim().toLowerCase() === name.toLowerCase());
    if (at >= 0) return at;
  }
  return -1;
}

/** A cell that mtg's formula guard prefixed with ' (a meeting ID starting with "=") is unguarded. */
const unguard = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

const TSV_UNESCAPES: Record<string, string> = { '\\\\': '\\', '\\t': '\t', '\\n': '\n', '\\r': '\r' };
// The writer's escapes (src/output/csv.ts): \\ \t \n \r, and \xHH for the other controls (C0,
// DEL, C1: 00-1f, 7f-9f), only those: a hand-written "\x41" stays as typed.
const unescapeTsv = (cell: string) =>
  cell.replace(/\\(?:[\\tnr]|x(?:[01][0-9a-f]|7f|8[0-9a-f]|9[0-9a-f]))/g, (e) =>
    e[1] === 'x' ? String.fromCharCode(Number.parseInt(e.slice(2), 16)) : (TSV_UNESCAPES[e] ?? e),
  );

/** tsv as mtg writes it: one line per row, escapes in cells (no quoting); blank and # lines skipped. */
function tsvRecords(lines: string[], headerAt: number): { cells: string[]; line: number }[] {
  const records: { cells: string[]; line: number }[] = [];
  for (let i = headerAt; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    records.push({ cells: line.split('\t').map(unescapeTsv), line: i + 1 });
  }
  return records;
}

/** RFC 4180: quoted cells may hold commas, doubled quotes and line breaks; # lines are comments. */
function parseCsv(text: string, firstLine: number): { cells: string[]; line: number }[] {
  const records: { cells: string[]; line: number }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = firstLine;
  let recordLine = firstLine;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '#' && cell === '' && cells.length === 0) {
      // A comment line: skipped up to (not including) its line break.
      while (i + 1 < text.length && text[i + 1] !== '\n' && text[i + 1] !== '\r') i++;
      recordLine = -1;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      if (recordLine >= 0) {
        cells.push(cell);
        records.push({ cells, line: recordLine });
      }
      cells = [];
      cell = '';
      recordLine = ++line;
    } else cell += ch;
  }
  if (quoted) throw new UsageError(`stdin line ${recordLine}: a quoted csv cell is not closed`);
  if (recordLine >= 0 && (cell !== '' || cells.length > 0)) {
    cells.push(cell);
    records.push({ cells, line: recordLine });
  }
  return records;
}

/** One value per line, ndjson objects, or headerless single values. */
function lineValues<T>(lines: string[], column: StdinColumn<T>): T[] {
  const values: T[] = [];
  lines.forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    const where = `stdin line ${index + 1}`;
    if (trimmed.startsWith('{')) {
      const parsed = tryJson(trimmed);
      if (parsed === undefined) throw new UsageError(`${where}: not valid JSON`);
      if (!isObject(parsed)) throw new UsageError(`${where}: not a JSON object`);
      values.push(column.fromObject(parsed, `${where}: the object`));
      return;
    }
    // A later line of tabs (awk output) gives its first field.
    const value = trimmed.split('\t')[0]!.trim();
    // The header line of a one-column tsv (`--fields id --format tsv`).
    if (values.length === 0 && headerColumn([value], column.columns) === 0) return;
    // `jq '.[].id'` without -r: "one ID per line" is the bare value; sending the quotes would name
    // another item (or be refused by the server), so every --stdin refuses it alike.
    if (/^"(?:[^"\\]|\\.)*"$/.test(value)) {
      throw new UsageError(
        `${where}: ${value} is a JSON string, not a bare value: pipe bare values (jq -r) or NDJSON objects with an ${columnNames(column.columns)}`,
      );
    }
    values.push(withWhere(where, () => column.fromText(value, where)));
  });
  return values;
}
