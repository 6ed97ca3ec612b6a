// The MCP side of results: the size bound, opaque cursors, and shortening one item too large to
// send whole. Nothing here knows the mirror.

import { createHash } from 'node:crypto';
import { safePrefix } from '../shared/clip.js';
import { UsageError } from '../shared/errors.js';
import { jsonTokens } from './tokens.js';

/**
 * No result's text block is estimated at more than this many tokens (the contract: under the
 * 25,000-token default cap of common clients, whatever the script; tokens.ts).
 */
export const RESULT_BOUND = 20_000;
/** What a page's items may take of the bound, leaving room for the result's other fields. */
export const ITEMS_BOUND = RESULT_BOUND - 1_000;

/** What a value costs in a result: the estimated tokens of its JSON. */
export const jsonCost = jsonTokens;

/** The arguments a cursor belongs to, as a short digest (a cursor of other arguments is refused). */
export function fingerprint(args: unknown): string {
  return createHash('sha256').update(JSON.stringify(args)).digest('base64url').slice(0, 12);
}

/**
 * Where a page ends, as each tool keeps it: an index (transcript entries, ranked search hits,
 * together with the mirror's state they were ranked in) or the sort key of the last item returned
 * (the listings, so that items added or removed before it move nothing).
 */
export type CursorPosition = Record<string, unknown>;

/** A short check over a cursor's payload: a cursor made up or edited fails it. */
function checksum(payload: string): string {
  return createHash('sha256').update(`mtg mcp cursor\0${payload}`).digest('base64url').slice(0, 10);
}

/** An opaque cursor (base64url JSON) holding the arguments' fingerprint `f`, the position and a check. */
export function encodeCursor(f: string, position: CursorPosition): string {
  const payload = JSON.stringify({ f, ...position });
  return Buffer.from(`${payload.slice(0, -1)},"k":"${checksum(payload)}"}`).toString('base64url');
}

/**
 * The position of a cursor this server gave for these arguments (`f`), checked by `valid`; a cursor
 * made up, edited or cut is "malformed", one of other arguments says so: both UsageErrors.
 */
export function decodeCursor<P extends CursorPosition>(
  cursor: string | undefined,
  f: string,
  valid: (position: CursorPosition) => boolean,
): P | undefined {
  if (cursor === undefined) return undefined;
  const bad = new UsageError(
    'malformed cursor: it is not one this server gave; pass back nextCursor exactly as received, with the same other arguments',
  );
  let state: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad;
    state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad;
  }
  if (typeof state !== 'object' || state === null || Array.isArray(state)) throw bad;
  const { k, ...payload } = state as { k?: unknown; f?: unknown };
  if (typeof k !== 'string' || typeof payload.f !== 'string' || k !== checksum(JSON.stringify(payload)))
    throw bad;
  const { f: given, ...position } = payload;
  if (given !== f) {
    throw new UsageError(
      'this cursor belongs to other arguments: repeat the call with the arguments that gave it, or start without a cursor',
    );
  }
  if (!valid(position)) throw bad;
  return position as P;
}

/** A whole number, 0 or more (a position's index). */
export const isIndex = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/**
 * Where a page keeps an item that alone passes the bound, for a tool with no next page to send it
 * on (sql): wherever it comes, shortened to the room left, at most `maxRoom` (leaving room for the
 * items after it), as long as `minRoom` is left to show a useful part of it.
 */
export interface CutAnywhere {
  minRoom: number;
  maxRoom: number;
}

/** How takePage pages: what each parameter means is said there. */
export interface PageOptions<T, U> {
  offset?: number;
  limit: number;
  map: (item: T) => U;
  shorten: (item: U, room: number) => U;
  cutAnywhere?: CutAnywhere;
  beside?: (item: U) => number;
  bound?: number;
}

/**
 * Up to `limit` items after skipping `offset` (0), as many as fit in `bound` tokens of JSON (ITEMS_BOUND;
 * less where the result holds more beside them: sql's column names);
 * `more` when items are left; `last` the item the page ends with, as given (a keyset cursor's
 * key); `shortened` the positions in `page` of the items `shorten` cut. An item that alone passes
 * the bound is shortened when it comes first, to the whole bound, and ends the page otherwise: the
 * next page (a cursor) starts with it. With `cutAnywhere` it is shortened wherever it comes (and
 * the page ends where the room left is too small for it). `beside` is what an item costs outside its
 * JSON (its resource link: a client gets that too), asked once for each item the page considers,
 * in order.
 */
export function takePage<T, U>(
  items: Iterable<T>,
  { offset = 0, limit, map, shorten, cutAnywhere, beside = () => 0, bound = ITEMS_BOUND }: PageOptions<T, U>,
): { page: U[]; more: boolean; next: number; last?: T; shortened: number[] } {
  const page: U[] = [];
  const shortened: number[] = [];
  let last: T | undefined;
  let used = 0;
  let index = 0;
  const ended = (more: boolean) => ({ page, more, next: offset + page.length, last, shortened });
  const it = items[Symbol.iterator]();
  try {
    for (let r = it.next(); !r.done; r = it.next(), index++) {
      if (index < offset) continue;
      if (page.length >= limit) return ended(true);
      let item = map(r.value);
      // Shortening the item never lengthens what is beside it (a link's name is a label).
      const outside = beside(item);
      let size = jsonCost(item) + 1 + outside;
      const room = bound - used;
      if (size > room) {
        if (cutAnywhere) {
          // One that fits a page alone is not cut: it comes whole on a page of its own.
          if (size <= bound || room < cutAnywhere.minRoom) return ended(true);
          item = shorten(item, Math.min(room, cutAnywhere.maxRoom) - 1 - outside);
          size = jsonCost(item) + 1 + outside;
          if (size > room) return ended(true);
        } else {
          if (page.length > 0) return ended(true);
          const whole = bound - outside;
          item = shorten(item, whole);
          // A tool's shortening that adds what passes the bound again (a note naming an ID of
          // any length): its strings cut as any item's.
          if (jsonCost(item) >= whole) item = shortenStrings(item, whole - 1);
          size = jsonCost(item) + 1 + outside;
        }
        shortened.push(page.length);
      }
      page.push(item);
      last = r.value;
      used += size;
    }
  } finally {
    it.return?.();
  }
  return ended(false);
}

/** Strings no longer than this are left whole by shortenStrings. */
const SHORT_STRING = 64;

/**
 * A copy of `value` whose JSON fits in `room` tokens: its longest strings cut (each marked with
 * "…[cut]"), longest first; then, when that is not enough, its longest lists (cutEntries); at
 * last its largest entries (dropLargest). Only for one item that alone passes the bound.
 */
export function shortenStrings<T>(value: T, room: number): T {
  let copy = structuredClone(value) as unknown;
  carryMarks(value, copy);
  dropHugeKeys(copy, room);
  for (let round = 0; round < 64 && jsonCost(copy) > room; round++) {
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
      copy = cutString(copy, Math.max(0, copy.length - charsFor(copy, jsonCost(copy) - room) - 16));
      continue;
    }
    visit(copy);
    // Short strings (IDs, names) are not worth cutting, and the mark would lengthen them: the
    // lists are cut instead.
    if (!longest || longest.length <= SHORT_STRING) break;
    const over = jsonCost(copy) - room;
    const s = (longest.holder as Record<string | number, string>)[longest.key]!;
    // At most half of it a round, so that the cut is shared among the longest strings; no more than
    // the excess, so that one a few tokens over is not cut in half (it kept half the room).
    (longest.holder as Record<string | number, string>)[longest.key] = cutString(
      s,
      Math.max(s.length - charsFor(s, over) - 16, Math.floor(s.length / 2)),
    );
  }
  return cutEntries(copy, room) as T;
}

/**
 * Entries of `copy` (changed in place) whose key alone passes `room`, left out where they are
 * (keys are never cut: nothing else brings such an entry within the room), before any text is
 * cut: cut first, the item's texts were halved 64 times for nothing (a 2 MB key two levels down
 * left a meeting's notes of 2,000 words 9 words). A loop over a stack, not a recursion.
 */
function dropHugeKeys(copy: unknown, room: number): void {
  const stack: { value: unknown; depth: number }[] = [{ value: copy, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (!isList(value) || depth > DROP_DEPTH) continue;
    if (!Array.isArray(value)) {
      const content = contentOf(value);
      const entries = content.entries as [string, unknown][];
      // A character costs 6 tokens at most (an escaped control): shorter keys are not measured.
      const out = new Set<number>();
      entries.forEach(([key], i) => {
        if ((key.length + 1) * 6 > room && jsonCost(key) > room) out.add(i);
      });
      if (out.size > 0) dropEntries(value, content, out);
    }
    for (const x of Object.values(value)) stack.push({ value: x, depth: depth + 1 });
  }
}

/** Rounds of cutEntries at most (each a measure of the list it cuts); dropLargest ends the rest. */
const ENTRY_ROUNDS = 200;

/**
 * `copy` (changed in place) within `room` where cutting strings could not bring it (a meeting of
 * thousands of attendees, an object of thousands of keys: 100,000 tokens sent for a bound of
 * 20,000); an entry that alone passes the room by its key is already out (dropHugeKeys). The
 * array or object of the most entries keeps as many as fit and ends with one saying how many were
 * left out; then the next, until it fits. Each round that does not make it fit cuts a list of 2
 * entries or more to its mark alone (1 entry, never cut again), so the rounds end; past
 * ENTRY_ROUNDS, or with no list left to cut, dropLargest.
 * The lists are found in one walk and the item measured whole only once it may fit (a round
 * subtracts what its list lost): a walk and a measure of the whole item each round made a meeting
 * of 7 MB take 61 s.
 */
function cutEntries(copy: unknown, room: number): unknown {
  let cost = jsonCost(copy);
  if (cost <= room) return copy;
  const byCount = listsByCount(copy);
  const gone = new WeakSet<object>();
  let next = 0;
  for (let round = 0; cost > room && round < ENTRY_ROUNDS; round++) {
    while (next < byCount.length && gone.has(byCount[next]!)) next++;
    const list = byCount[next++];
    if (!list) break;
    const { entries, left } = contentOf(list);
    const keep = (k: number) => setEntries(list, entries.slice(0, k), entries.length - k + left);
    // A list alone not enough (most rounds when many are long) is cut to nothing at one measure
    // of the list; the lists inside it are gone from the item.
    const before = jsonCost(list);
    keep(0);
    forEachListIn(
      entries.map((e) => entryValue(list, e)),
      (inner) => gone.add(inner),
    );
    // The JSON of a list is bounded by brackets: the item's estimate loses what the list lost
    // (fractions of a token aside), and the fit is measured whole.
    cost -= before - jsonCost(list);
    if (cost > room) continue;
    cost = jsonCost(copy);
    if (cost > room) continue;
    keep(
      mostThatFit(0, entries.length - 1, (k) => {
        keep(k);
        return jsonCost(copy) <= room;
      }),
    );
    cost = jsonCost(copy);
  }
  return cost > room ? dropLargest(copy, room) : copy;
}

/** The lists of `copy` of 2 entries or more, the most entries first (ties in the order met, from the top). */
function listsByCount(copy: unknown): List[] {
  const found: { list: List; count: number }[] = [];
  forEachListIn([copy], (list) => {
    const count = Array.isArray(list) ? list.length : Object.keys(list).length;
    if (count > 1) found.push({ list, count });
  });
  // A stable sort: of lists of as many entries, the first met is cut first.
  return found.sort((a, b) => b.count - a.count).map((f) => f.list);
}

/** Each list in `values` and inside them, from the top, in order (a loop over a stack: server text). */
function forEachListIn(values: unknown[], each: (list: List) => void): void {
  const stack = [...values].reverse();
  while (stack.length > 0) {
    const v = stack.pop();
    if (!isList(v)) continue;
    each(v);
    const inner = Array.isArray(v) ? v : Object.values(v);
    for (let i = inner.length - 1; i >= 0; i--) stack.push(inner[i]);
  }
}

/** The most of `lo`..`hi` that fit (`lo` taken to; `fits` holds up to some number, not past it). */
function mostThatFit(lo: number, hi: number, fits: (k: number) => boolean): number {
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The fewest of `lo`..`hi` that are enough (`hi` taken to be; `enough` holds from some number on). */
function fewestEnough(lo: number, hi: number, enough: (k: number) => boolean): number {
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (enough(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** An array or object: what entries are left out of. */
type List = unknown[] | Record<string, unknown>;
const isList = (v: unknown): v is List => typeof v === 'object' && v !== null;
/** A list's entries: an array's values, an object's [key, value] pairs (a key costs as its value does). */
const entriesOf = (list: List): unknown[] => (Array.isArray(list) ? [...list] : Object.entries(list));

/**
 * The lists mtg left entries out of, and how many: their mark (an array's last entry, an object's
 * "…[cut]") is mtg's. Known by identity, not by text: a server's "…[cut]": "999,999,999 more" was
 * read as a mark (the count said 1,000,000,000), and so was a list cut to its mark inside another.
 */
const leftOut = new WeakMap<List, number>();

/** A list's entries, mtg's mark aside, and how many that mark says were left out (0 without one). */
function contentOf(list: List): { entries: unknown[]; left: number } {
  const left = leftOut.get(list);
  if (left === undefined) return { entries: entriesOf(list), left: 0 };
  const entries = Array.isArray(list)
    ? list.slice(0, -1)
    : Object.entries(list).filter(([key]) => key !== CUT_KEY);
  return { entries, left };
}

/** The marks of `from`'s lists on the same lists of `copy`, its structured clone (a clone has none). */
function carryMarks(from: unknown, copy: unknown): void {
  const stack: [unknown, unknown][] = [[from, copy]];
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    if (!isList(a) || !isList(b)) continue;
    const left = leftOut.get(a);
    if (left !== undefined) leftOut.set(b, left);
    for (const [key, x] of Object.entries(a))
      if (isList(x)) stack.push([x, (b as Record<string, unknown>)[key]]);
  }
}
const entryValue = (list: List, entry: unknown): unknown =>
  Array.isArray(list) ? entry : (entry as [string, unknown])[1];

/** Levels the walk down an item goes at most: past the API's depth bound (256: a body is cut there). */
const DROP_DEPTH = 300;
/** Rounds of dropLargest at most (each a walk down and a few measures of the list it cuts). */
const DROP_ROUNDS = 64;

/**
 * Where to leave entries out of `copy`: from the top, down into the largest entry while it alone
 * passes `room` and its value is a list that alone passes it too (cutting inside it can make it
 * fit); the list reached, its entries, their costs, and the lists above it (`path`, whose costs
 * change with it). A loop, not a recursion: item values are server text.
 */
function deepestOver(copy: List, room: number, cost: ListCosts = listCosts()) {
  const path: List[] = [];
  let list = copy;
  for (let depth = 0; ; depth++) {
    path.push(list);
    const { entries, left } = contentOf(list);
    const costs = entries.map((e) =>
      Array.isArray(list) ? cost(e) : entryCost(e as [string, unknown], cost),
    );
    let largest = 0;
    for (let i = 1; i < costs.length; i++) if (costs[i]! > costs[largest]!) largest = i;
    const inner = entries.length > 0 ? entryValue(list, entries[largest]) : undefined;
    if (depth >= DROP_DEPTH || !(costs[largest]! > room) || !isList(inner) || cost(inner) <= room)
      return { list, entries, left, costs, path };
    list = inner;
  }
}

/** What an object's entry costs: its key, a colon, its value. */
const entryCost = ([key, value]: [string, unknown], cost: (v: unknown) => number) =>
  jsonCost(key) + 1 + cost(value);

/** listCosts' measure, and how to forget a list changed since it was measured. */
type ListCosts = ((v: unknown) => number) & { forget: (list: List) => void };

/**
 * About what a value's JSON costs, each list measured once (the walk down measures every level's
 * entries: measuring each whole, a huge key 256 levels down was estimated 256 times, 17 s), as the
 * sum of its parts; only to choose where to cut, the fit itself is measured whole. Past DROP_DEPTH
 * levels a value is measured whole (no deeper recursion).
 */
function listCosts(): ListCosts {
  const known = new WeakMap<object, number>();
  const cost = (v: unknown, depth = 0): number => {
    if (!isList(v) || depth >= DROP_DEPTH) return jsonCost(v);
    let sum = known.get(v);
    if (sum !== undefined) return sum;
    sum = 2;
    if (Array.isArray(v)) for (const x of v) sum += cost(x, depth + 1) + 1;
    else for (const [k, x] of Object.entries(v)) sum += jsonCost(k) + 2 + cost(x, depth + 1);
    known.set(v, sum);
    return sum;
  };
  return Object.assign((v: unknown) => cost(v), { forget: (list: List) => known.delete(list) });
}

/**
 * The last resort, where cutting lists could not bring `copy` within `room` (more lists than
 * ENTRY_ROUNDS): at the deepest list where the excess lies (deepestOver), its largest entries left
 * out, largest first, as few as make it fit, and its last entry saying how many; again where that
 * was not enough. Each round measures the list it cuts, not the item (the item's cost goes down by
 * what the list lost), and the costs of the lists above it alone are measured again. Where
 * DROP_ROUNDS were not enough (more such lists than the rounds), the item's own largest entries
 * are left out (dropTopLevel): the bound holds whatever the shape.
 */
function dropLargest(copy: unknown, room: number): unknown {
  if (!isList(copy)) return copy;
  const cost = listCosts();
  let over = jsonCost(copy) - room;
  for (let round = 0; round < DROP_ROUNDS && over > 0; round++) {
    const { list, entries, left, costs, path } = deepestOver(copy, room, cost);
    if (entries.length === 0) break;
    const largestFirst = entries.map((_, i) => i).sort((a, b) => costs[b]! - costs[a]!);
    const drop = (d: number) => dropEntries(list, { entries, left }, new Set(largestFirst.slice(0, d)));
    const before = jsonCost(list);
    // A list whose every entry is not enough (most rounds when many are long) loses them all at
    // one measure of it.
    drop(entries.length);
    if (before - jsonCost(list) > over)
      drop(
        fewestEnough(1, entries.length, (d) => {
          drop(d);
          return before - jsonCost(list) >= over;
        }),
      );
    for (const changed of path) cost.forget(changed);
    over -= before - jsonCost(list);
    // What the list lost is the item's loss within a token or so: the fit is measured whole.
    if (over <= 0) over = jsonCost(copy) - room;
  }
  return over > 0 ? dropTopLevel(copy, room) : copy;
}

/** `copy`'s own largest entries left out, as few as bring it within `room` (all of them at most: its mark alone). */
function dropTopLevel(copy: List, room: number): List {
  const content = contentOf(copy);
  const { entries } = content;
  const costs = entries.map((e) => jsonCost(e));
  const largestFirst = entries.map((_, i) => i).sort((a, b) => costs[b]! - costs[a]!);
  const drop = (d: number) => dropEntries(copy, content, new Set(largestFirst.slice(0, d)));
  drop(
    fewestEnough(1, entries.length, (d) => {
      drop(d);
      return jsonCost(copy) <= room;
    }),
  );
  return copy;
}

/**
 * `list` (changed in place) without the `out` of its `entries` (contentOf, taken before any change);
 * its mark counts them with the `left` it counted before.
 */
function dropEntries(
  list: List,
  { entries, left }: { entries: unknown[]; left: number },
  out: Set<number>,
): void {
  setEntries(
    list,
    entries.filter((_, i) => !out.has(i)),
    left + out.size,
  );
}

/** The key of an object's mark. */
const CUT_KEY = '…[cut]';

/** `list` (changed in place) holding `kept` of its entries, in order, and one saying `left` more were left out. */
function setEntries(list: unknown[] | Record<string, unknown>, kept: unknown[], left: number): void {
  if (Array.isArray(list)) {
    leftOut.set(list, left);
    // One push each: spread into push(), the kept entries were arguments, and past ~200,000 of
    // them the call overflowed the stack.
    list.length = 0;
    for (const x of kept) list.push(x);
    list.push(`…[cut: ${left.toLocaleString('en')} more]`);
    return;
  }
  // The server's own "…[cut]" entry gives its key to the mark: it is left out, and counted.
  const entries = (kept as [string, unknown][]).filter(([key]) => key !== CUT_KEY);
  const counted = left + kept.length - entries.length;
  leftOut.set(list, counted);
  for (const key of Object.keys(list)) delete list[key];
  // Defined, not assigned: a key "__proto__" (JSON.parse makes it an own key) stays a key.
  for (const [key, x] of [...entries, [CUT_KEY, `${counted.toLocaleString('en')} more`]])
    Object.defineProperty(list, key as string, {
      value: x,
      enumerable: true,
      writable: true,
      configurable: true,
    });
}

/**
 * About how many characters of `s` cost `tokens` (its tokens per character as it stands in the
 * JSON: a JSON text in a cell has its quotes escaped, which costs more than the text read alone; by
 * the text alone, a transcript's JSON in an sql cell was cut to nothing).
 */
function charsFor(s: string, tokens: number): number {
  const perChar = jsonCost(s) / Math.max(1, s.length);
  return Math.ceil(tokens / Math.max(perChar, 0.1));
}

/** Characters of a meeting's name kept where it labels an item (a listing, a hit): a name is not notes. */
export const NAME_CHARS = 1_000;

/**
 * A meeting's name as the label of an item: whole up to NAME_CHARS characters, else cut and marked
 * (a name of 1,000,000 characters made each hit of its meeting 31,000 characters of name).
 */
export function labelName<T>(name: T): T | string {
  return typeof name === 'string' && name.length > NAME_CHARS ? cutString(name, NAME_CHARS) : name;
}

/**
 * `s` whole if its JSON costs at most `tokens`, else its longest beginning that does with the mark
 * (at least the mark: `tokens` is more than it costs). A cut to a number of characters is no
 * bound: a control character costs six tokens, escaped.
 */
export function cutToTokens(s: string, tokens: number): string {
  if (jsonCost(s) <= tokens) return s;
  // A character costs a quarter of a token at least (a run of spaces).
  const keep = mostThatFit(0, Math.min(s.length, tokens * 4), (k) => jsonCost(cutString(s, k)) <= tokens);
  return cutString(s, keep);
}

/**
 * The first entries of `list` whole, as many as fit `room` with a last one saying how many more
 * were left out (as cutEntries cuts a list); undefined when not even the first fits whole.
 */
export function firstWhole(list: readonly unknown[], room: number): unknown[] | undefined {
  const kept: unknown[] = [];
  const keep = (k: number) => setEntries(kept, list.slice(0, k), list.length - k);
  const k = mostThatFit(0, list.length - 1, (k) => {
    keep(k);
    return jsonCost(kept) <= room;
  });
  if (k === 0) return undefined;
  keep(k);
  return kept;
}

/** The first `keep` characters (never half a surrogate pair) and a mark. */
export function cutString(s: string, keep: number): string {
  return `${safePrefix(s, keep)}…[cut]`;
}

// ---- keyset positions of the listings -----------------------------------------------------------

/**
 * Where a newest-first page of meetings ends: the last meeting's createdAt and the IDs returned with
 * that same instant (so ties, in whatever order the service lists them, are neither repeated nor
 * skipped). The next page is the meetings strictly older, or of that instant and not yet returned.
 */
export interface MeetingKey extends CursorPosition {
  at: string | null;
  ids: string[];
}

/** A meeting's instant for ordering (none, or not a date: older than any). */
const instant = (at: string | null | undefined): number => {
  const t = at ? Date.parse(at) : Number.NaN;
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
};

export const isMeetingKey = (p: CursorPosition): boolean =>
  Object.keys(p).length === 2 &&
  (p.at === null || typeof p.at === 'string') &&
  Array.isArray(p.ids) &&
  p.ids.length > 0 &&
  p.ids.every((id) => typeof id === 'string');

/** The key of a page of meetings that follows the page that ended at `previous`. */
export function meetingKeyOf(
  previous: MeetingKey | undefined,
  page: readonly { id: string; createdAt: string | null }[],
): MeetingKey {
  const last = page[page.length - 1]!;
  const t = instant(last.createdAt);
  const ids = page.filter((m) => instant(m.createdAt) === t).map((m) => m.id);
  return {
    at: last.createdAt,
    ids: previous && instant(previous.at) === t ? [...previous.ids, ...ids] : ids,
  };
}

/** Where a page of action items (listed by ID, in the order the service made them) ends. */
export interface ItemKey extends CursorPosition {
  id: string;
}

export const isItemKey = (p: CursorPosition): boolean =>
  Object.keys(p).length === 1 && typeof p.id === 'string';

/** A text that sorts as IDs do: integers (of any length) by value, before any other text. */
export function idSortKey(id: string): string {
  if (!/^\d+$/.test(id)) return `~${id}`;
  const digits = id.replace(/^0+(?=\d)/, '');
  return `${String(digits.length).padStart(6, '0')}:${digits}`;
}

/**
 * The first `count` of `items` in the order of `key` (ties in the order they came), the rest let
 * go as they pass: a listing sorted in memory keeps no more than its page alive. Keeping every
 * item until the sort (10,000 action items of a few KB each for one list_action_items call) moved
 * them all to V8's old generation, which grew by that much per call until its next full GC.
 */
export function firstByKey<T>(items: Iterable<T>, count: number, key: (item: T) => string): T[] {
  const kept: { key: string; item: T }[] = [];
  for (const item of items) {
    const k = key(item);
    if (kept.length >= count && k >= kept[kept.length - 1]!.key) continue;
    // After every kept item of a key <= k: ties stay in the order they came.
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (kept[mid]!.key <= k) lo = mid + 1;
      else hi = mid;
    }
    kept.splice(lo, 0, { key: k, item });
    if (kept.length > count) kept.pop();
  }
  return kept.map((e) => e.item);
}

/**
 * Where a page of ranked search hits ends: the index of the next hit, and the state of the mirror
 * they were ranked in (its last change seq): bm25 ranks move when the corpus changes, so a cursor
 * is only good while that state holds.
 */
export interface HitsPosition extends CursorPosition {
  o: number;
  v: number;
}

export const isHitsPosition = (p: CursorPosition): boolean =>
  Object.keys(p).length === 2 && isIndex(p.o) && isIndex(p.v);

/**
 * A place in a transcript: entry `o`, of which `c` characters were already sent, in the transcript
 * whose digest is `h` (a sync may fetch it again, changed: its entries would move under the index).
 */
export interface EntryPosition extends CursorPosition {
  o: number;
  c?: number;
  h: string;
}

export const isEntryPosition = (p: CursorPosition): boolean =>
  isIndex(p.o) &&
  (p.c === undefined || isIndex(p.c)) &&
  typeof p.h === 'string' &&
  Object.keys(p).length === (p.c === undefined ? 2 : 3);
