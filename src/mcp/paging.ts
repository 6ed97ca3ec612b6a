// The MCP side of results: the size bound, opaque cursors, and shortening one item too large to
// send whole. Nothing here knows the mirror.

import { createHash } from 'node:crypto';
import { UsageError } from '../api/errors.js';

/** No result is longer than this many characters of JSON (the contract). */
export const RESULT_BOUND = 100_000;
/** What a page's items may take of the bound, leaving room for the result's other fields. */
export const ITEMS_BOUND = RESULT_BOUND - 4_000;

export function jsonLength(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}

/** The arguments a cursor belongs to, as a short digest (a cursor of other arguments is refused). */
export function fingerprint(args: unknown): string {
  return createHash('sha256').update(JSON.stringify(args)).digest('base64url').slice(0, 12);
}

export interface CursorState {
  /** The tool and its arguments (fingerprint). */
  f: string;
  /** Position: an offset in the result list, or an entry index. */
  o: number;
  /** Characters of entry `o` already sent (a transcript entry sent in pieces). */
  c?: number;
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

/** The state of a cursor this server gave for these arguments; anything else is a UsageError. */
export function decodeCursor(cursor: string | undefined, f: string): CursorState | undefined {
  if (cursor === undefined) return undefined;
  const bad = new UsageError(
    'the cursor is not one this server gave: pass back nextCursor exactly as received, with the same other arguments',
  );
  let state: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad;
    state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad;
  }
  const s = state as Partial<CursorState>;
  if (
    typeof s !== 'object' ||
    s === null ||
    typeof s.f !== 'string' ||
    !Number.isSafeInteger(s.o) ||
    (s.o as number) < 0 ||
    (s.c !== undefined && (!Number.isSafeInteger(s.c) || s.c < 0))
  )
    throw bad;
  if (s.f !== f) {
    throw new UsageError(
      'this cursor belongs to other arguments: repeat the call with the arguments that gave it, or start without a cursor',
    );
  }
  return s as CursorState;
}

/**
 * Up to `limit` items after skipping `offset`, as many as fit in ITEMS_BOUND characters of JSON
 * (at least one, shortened by `shorten` when it alone would not fit); `more` when items are left.
 */
export function takePage<T, U>(
  items: Iterable<T>,
  offset: number,
  limit: number,
  map: (item: T) => U,
  shorten: (item: U, room: number) => U,
): { page: U[]; more: boolean; next: number } {
  const page: U[] = [];
  let used = 0;
  let index = 0;
  const it = items[Symbol.iterator]();
  try {
    for (let r = it.next(); !r.done; r = it.next(), index++) {
      if (index < offset) continue;
      if (page.length >= limit) return { page, more: true, next: offset + page.length };
      let item = map(r.value);
      let size = jsonLength(item) + 1;
      if (size > ITEMS_BOUND - used) {
        if (page.length > 0) return { page, more: true, next: offset + page.length };
        item = shorten(item, ITEMS_BOUND);
        size = jsonLength(item) + 1;
      }
      page.push(item);
      used += size;
    }
  } finally {
    it.return?.();
  }
  return { page, more: false, next: offset + page.length };
}

/**
 * A copy of `value` whose JSON fits in `room` characters: its longest strings cut (each marked with
 * "…[cut]"), longest first. Only for one item that alone passes the bound.
 */
export function shortenStrings<T>(value: T, room: number): T {
  let copy = structuredClone(value) as unknown;
  for (let round = 0; round < 64 && jsonLength(copy) > room; round++) {
    let longest:
      | { holder: Record<string, unknown> | unknown[]; key: string | number; length: number }
      | undefined;
    const visit = (v: unknown) => {
      if (Array.isArray(v)) {
        v.forEach((x, i) => {
          if (typeof x === 'string' && (!longest || x.length > longest.length))
            longest = { holder: v, key: i, length: x.length };
          else visit(x);
        });
      } else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (typeof x === 'string' && (!longest || x.length > longest.length))
            longest = { holder: v as Record<string, unknown>, key: k, length: x.length };
          else visit(x);
        }
      }
    };
    if (typeof copy === 'string') {
      copy = cutString(copy, Math.max(0, copy.length - (jsonLength(copy) - room) - 16));
      continue;
    }
    visit(copy);
    if (!longest) break;
    const over = jsonLength(copy) - room;
    const s = (longest.holder as Record<string | number, string>)[longest.key]!;
    (longest.holder as Record<string | number, string>)[longest.key] = cutString(
      s,
      Math.max(0, Math.min(s.length - over - 16, Math.floor(s.length / 2))),
    );
  }
  return copy as T;
}

/** The first `keep` characters (never half a surrogate pair) and a mark. */
export function cutString(s: string, keep: number): string {
  return `${safePrefix(s, keep)}…[cut]`;
}

/** At most `n` characters of `s`, never ending in the first half of a surrogate pair. */
export function safePrefix(s: string, n: number): string {
  if (n >= s.length) return s;
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}
