// Turning command-line words into validated values, before anything is sent. Every failure is a
// UsageError: one line, exit 2.

import { UsageError } from '../api/errors.js';
import { type ExactId, ExactInteger, isExactInteger, parseJsonExact } from '../api/exact.js';

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

/** A whole number of at least `min` (IDs, counts, ports); the one validator every command uses. */
export function wholeNumber(value: string, what: string, min = 0): number {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed)) || Number(trimmed) < min) {
    const expected =
      min === 1
        ? 'a positive whole number'
        : min === 0
          ? 'a whole number of 0 or more'
          : `a whole number of at least ${min}`;
    throw new UsageError(`${what} must be ${expected}, got "${value}"`);
  }
  return Number(trimmed);
}

/** A TCP port, 0 (any free port) to 65535: checked here, since listen() throws on others. */
export function port(value: string, what: string): number {
  const trimmed = value.trim();
  const n = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || n > 65535)
    throw new UsageError(`${what} must be a whole number from 0 to 65535, got "${value}"`);
  return n;
}

export function positiveId(value: string, what: string): number {
  return wholeNumber(value, what, 1);
}

/**
 * A positive ID of any number of digits: mtg prints IDs beyond 2^53 exactly, so they come back
 * (`list --json | update --stdin`) and must reach the server unrounded. String() of either kind
 * gives the digits for a path; stringifyExact() writes both as JSON integers.
 */
export function exactId(value: string, what: string): ExactId {
  const trimmed = value.trim();
  if (/^\d{16,}$/.test(trimmed) && !Number.isSafeInteger(Number(trimmed)))
    return new ExactInteger(trimmed.replace(/^0+/, ''));
  return positiveId(value, what);
}

/** exactId for each value, duplicates (by their digits) dropped, first occurrence kept. */
export function uniqueExactIds(values: string[], what: string): ExactId[] {
  const seen = new Map<string, ExactId>();
  for (const value of values) {
    const id = exactId(value, what);
    if (!seen.has(String(id))) seen.set(String(id), id);
  }
  return [...seen.values()];
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

export function positiveIds(values: string[], what: string): number[] {
  return values.map((v) => positiveId(v, what));
}

/** A non-empty string ID (meeting IDs are strings in the spec). */
export function stringId(value: string | undefined, what: string): string {
  const trimmed = (value ?? '').trim();
  if (!trimmed) throw new UsageError(`${what} must not be empty`);
  if (/[\s/?#]/.test(trimmed))
    throw new UsageError(`${what} "${value}" contains characters an ID cannot have`);
  return trimmed;
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

/**
 * Read `--stdin`: IDs in any format mtg itself prints, so `mtg … list --json | mtg … --stdin` works
 * whatever the format (see parseStdinIds). A terminal is refused: nobody is typing IDs there.
 */
export async function readStdinIds(stdin: NodeJS.ReadableStream & { isTTY?: boolean }): Promise<string[]> {
  if (stdin.isTTY)
    throw new UsageError('--stdin expects IDs piped in, one per line (e.g. `... | mtg ... --stdin`)');
  let text = '';
  stdin.setEncoding('utf8');
  for await (const chunk of stdin) text += chunk;
  return parseStdinIds(text);
}

const STDIN_FORMATS = 'one ID per line, ndjson, --json, or csv/tsv with an "id" column';

/**
 * The IDs of a `--stdin` text, the format told from the text itself:
 *  - a JSON array (`--json`): objects with an "id", or IDs;
 *  - csv or tsv whose first row is a header with an "id" column, anywhere (`--format csv|tsv`);
 *  - otherwise lines: an ndjson object with an "id", or an ID (a headerless tsv row gives its
 *    first field, so `… --format tsv | tail -n +2 | …` and `awk` output work); blank lines and
 *    # comments are skipped, and a lone "id" header line too.
 * A table (`--format table`) is for people: it is refused with the formats to use instead.
 */
export function parseStdinIds(input: string): string[] {
  const text = input.replace(/^\uFEFF/, ''); // csv written with --bom
  const start = text.trimStart();
  if (start.startsWith('[')) return idsOfJsonArray(text);
  if (start.startsWith('{')) {
    // One pretty-printed object (`… view --json` on a terminal) is not ndjson, but is one item.
    const whole = tryJson(text);
    if (isObject(whole)) return [idOfObject(whole, 'stdin: the JSON object')];
  }
  const lines = text.split(/\r?\n/);
  const firstAt = lines.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  const first = firstAt < 0 ? '' : lines[firstAt]!;
  // A table's header row ("id  status  title", or a border): an ID never holds a space.
  if (/^[\u2500-\u257f]/.test(start) || /^\s*id +\S/i.test(first))
    throw new UsageError(`--stdin cannot read a table: pipe ${STDIN_FORMATS} (e.g. --format tsv)`);
  if (first.includes('\t')) {
    const column = idColumn(first.split('\t').map(unescapeTsv));
    if (column >= 0) return tsvIds(lines, firstAt, column);
  } else if (first.includes(',') && !first.trimStart().startsWith('{')) {
    const records = parseCsv(lines.slice(firstAt).join('\n'), firstAt + 1);
    const column = idColumn(records[0]!.cells);
    if (column >= 0) return csvIds(records, column);
  }
  return lineIds(lines);
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

/** An "id" as the API sent it: a string, or a number (beyond 2^53 kept exact). */
function idOfObject(value: Record<string, unknown>, where: string): string {
  const id = value.id;
  if (typeof id === 'string' || typeof id === 'number' || isExactInteger(id)) return String(id);
  throw new UsageError(`${where} has no "id"`);
}

function idsOfJsonArray(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = parseJsonExact(text);
  } catch (err) {
    throw new UsageError(`stdin starts with "[" but is not a valid JSON array: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new UsageError('stdin starts with "[" but is not a JSON array');
  return parsed.map((element, index) => {
    if (typeof element === 'string' || typeof element === 'number' || isExactInteger(element))
      return String(element);
    if (isObject(element)) return idOfObject(element, `stdin: element ${index} of the JSON array`);
    throw new UsageError(
      `stdin: element ${index} of the JSON array is neither an ID nor an object with an "id"`,
    );
  });
}

/** The index of the "id" column of a header row, or -1 when the row is not such a header. */
function idColumn(cells: string[]): number {
  return cells.findIndex((c) => c.trim().toLowerCase() === 'id');
}

/** A cell that mtg's formula guard prefixed with ' (a meeting ID starting with "=") is unguarded. */
const unguard = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

function idCell(cell: string | undefined, row: number): string {
  const id = unguard((cell ?? '').trim());
  if (id === '') throw new UsageError(`stdin line ${row}: the "id" column is empty`);
  return id;
}

const TSV_UNESCAPES: Record<string, string> = { '\\\\': '\\', '\\t': '\t', '\\n': '\n', '\\r': '\r' };
const unescapeTsv = (cell: string) => cell.replace(/\\[\\tnr]/g, (e) => TSV_UNESCAPES[e] ?? e);

/** tsv as mtg writes it: one line per row, escapes in cells (no quoting). */
function tsvIds(lines: string[], headerAt: number, column: number): string[] {
  const ids: string[] = [];
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    ids.push(idCell(unescapeTsv(line.split('\t')[column] ?? ''), i + 1));
  }
  return ids;
}

function csvIds(records: { cells: string[]; line: number }[], column: number): string[] {
  return records
    .slice(1)
    .filter((r) => !(r.cells.length === 1 && r.cells[0] === ''))
    .map((r) => idCell(r.cells[column], r.line));
}

/** RFC 4180: quoted cells may hold commas, doubled quotes and line breaks. */
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
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      records.push({ cells, line: recordLine });
      cells = [];
      cell = '';
      recordLine = ++line;
    } else cell += ch;
  }
  if (quoted) throw new UsageError(`stdin line ${recordLine}: a quoted csv cell is not closed`);
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    records.push({ cells, line: recordLine });
  }
  return records;
}

/** One ID per line, ndjson objects, or headerless tsv rows (their first field). */
function lineIds(lines: string[]): string[] {
  const ids: string[] = [];
  lines.forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    if (trimmed.startsWith('{')) {
      const parsed = tryJson(trimmed);
      if (parsed === undefined) throw new UsageError(`stdin line ${index + 1}: not valid JSON`);
      if (!isObject(parsed)) throw new UsageError(`stdin line ${index + 1}: the object has no "id"`);
      ids.push(idOfObject(parsed, `stdin line ${index + 1}: the object`));
      return;
    }
    const first = trimmed.split(/\t/)[0]!.trim();
    if (ids.length === 0 && first.toLowerCase() === 'id') return;
    ids.push(first);
  });
  return ids;
}
