// Turning command-line words into validated values, before anything is sent. Every failure is a
// UsageError: one line, exit 2.

import { UsageError } from '../api/errors.js';

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

export function positiveId(value: string, what: string): number {
  return wholeNumber(value, what, 1);
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

/** Read `--stdin`: one ID per line, or NDJSON objects with an "id". Blank lines and # comments skipped. */
export async function readStdinIds(stdin: NodeJS.ReadableStream & { isTTY?: boolean }): Promise<string[]> {
  if (stdin.isTTY)
    throw new UsageError('--stdin expects IDs piped in, one per line (e.g. `... | mtg ... --stdin`)');
  let text = '';
  stdin.setEncoding('utf8');
  for await (const chunk of stdin) text += chunk;
  return parseIdLines(text);
}

export function parseIdLines(text: string): string[] {
  const ids: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    if (trimmed.startsWith('{')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(trimmed);
      } catch {
        throw new UsageError(`stdin line ${index + 1}: not valid JSON`);
      }
      const id = (parsed as { id?: unknown })?.id;
      if (typeof id !== 'string' && typeof id !== 'number')
        throw new UsageError(`stdin line ${index + 1}: the object has no "id"`);
      ids.push(String(id));
      return;
    }
    // tsv starts with the ID: take the first field so `mtg ... list | mtg ... --stdin` works,
    // and skip its header row.
    const first = trimmed.split(/\t/)[0]!.trim();
    if (ids.length === 0 && first.toLowerCase() === 'id') return;
    ids.push(first);
  });
  return ids;
}
