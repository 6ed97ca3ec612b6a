// IDs and the whole numbers they are, from text a person or an assistant gave (a command's
// arguments, `--stdin`, an MCP tool's arguments), checked before anything is sent. Every failure is
// a UsageError: one line, exit 2.

import { UsageError } from './errors.js';
import { type ExactId, ExactInteger } from './exact.js';

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
