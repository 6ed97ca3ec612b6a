// takePage (src/mcp/paging.ts), the one mechanism that pages every tool's result within the size
// bound: the tools with a cursor cut an item past the bound only when it comes first (the next page
// starts with an item that did not fit), and the sql tool, which has no next page, cuts it wherever
// it comes (cutAnywhere). Both modes are one loop: on items that each fit a page they give the same
// pages, so that the sql tool's page can never drift from the others' (it had a loop of its own).
import { describe, expect, it } from 'vitest';
import { ITEMS_BOUND, jsonCost, shortenStrings, takePage } from '../../src/mcp/paging.js';

interface Item {
  id: number;
  text: string;
}

/** An item of about `tokens` tokens of JSON (a word is one). */
const item = (id: number, tokens: number): Item => ({ id, text: 'word '.repeat(tokens) });
const ids = (page: Item[]) => page.map((i) => i.id);
/** What a page costs as takePage counts it: each item's JSON and its comma. */
const cost = (page: Item[]) => page.reduce((sum, i) => sum + jsonCost(i) + 1, 0);
const identity = (i: Item) => i;
const CUT = { minRoom: 2_000, maxRoom: Math.floor(ITEMS_BOUND / 4) };

describe('takePage, cutAnywhere (the sql tool)', () => {
  it('keeps an item past the bound where it comes, cut to the room left (at most maxRoom), and names its position', () => {
    const items = [item(0, 3_000), item(1, 3_000), item(2, 60_000), item(3, 3_000)];
    const r = takePage(items, { limit: 10, map: identity, shorten: shortenStrings, cutAnywhere: CUT });
    expect(ids(r.page)).toEqual([0, 1, 2, 3]);
    expect(r.more).toBe(false);
    expect(r.shortened).toEqual([2]);
    expect(r.page[2]!.text.endsWith('…[cut]')).toBe(true);
    expect(items[2]!.text.startsWith(r.page[2]!.text.slice(0, -'…[cut]'.length))).toBe(true);
    expect(jsonCost(r.page[2]) + 1).toBeLessThanOrEqual(CUT.maxRoom);
    // Cut to fit, not to nothing, nor to half.
    expect(jsonCost(r.page[2])).toBeGreaterThan(0.95 * CUT.maxRoom);
    expect(cost(r.page)).toBeLessThanOrEqual(ITEMS_BOUND);
    // The others are as given.
    expect(r.page[3]).toBe(items[3]);
  });

  it('cuts to the room left when less than maxRoom is left, and ends the page when less than minRoom is', () => {
    const roomy = takePage([item(0, 15_000), item(1, 60_000)], {
      limit: 10,
      map: identity,
      shorten: shortenStrings,
      cutAnywhere: CUT,
    });
    expect(ids(roomy.page)).toEqual([0, 1]);
    expect(roomy.shortened).toEqual([1]);
    expect(cost(roomy.page)).toBeLessThanOrEqual(ITEMS_BOUND);

    const full = takePage([item(0, 17_500), item(1, 60_000)], {
      limit: 10,
      map: identity,
      shorten: shortenStrings,
      cutAnywhere: CUT,
    });
    expect(ids(full.page)).toEqual([0]);
    expect(full.more).toBe(true);
    expect(full.next).toBe(1);
    expect(full.shortened).toEqual([]);
  });

  it('an item that fits a page alone but not the room left ends the page, whole, as without cutAnywhere', () => {
    const items = [item(0, 10_000), item(1, 12_000), item(2, 100)];
    const r = takePage(items, { limit: 10, map: identity, shorten: shortenStrings, cutAnywhere: CUT });
    expect(ids(r.page)).toEqual([0]);
    expect(r.more).toBe(true);
    expect(r.next).toBe(1);
    expect(r.shortened).toEqual([]);
  });
});

describe('takePage without cutAnywhere (the tools with a cursor)', () => {
  it('an item past the bound ends the page it does not fit in, and is cut to the bound when it comes first', () => {
    const items = [item(0, 3_000), item(1, 60_000), item(2, 12_000)];
    const first = takePage(items, { limit: 10, map: identity, shorten: shortenStrings });
    expect(ids(first.page)).toEqual([0]);
    expect(first.more).toBe(true);
    expect(first.shortened).toEqual([]);
    const second = takePage(items, { offset: first.next, limit: 10, map: identity, shorten: shortenStrings });
    expect(ids(second.page)).toEqual([1]);
    expect(second.shortened).toEqual([0]);
    expect(jsonCost(second.page[0])).toBeLessThanOrEqual(ITEMS_BOUND);
    // Cut to the bound, not below: one a few tokens over the bound after a first cut was cut in half.
    expect(jsonCost(second.page[0])).toBeGreaterThan(0.95 * ITEMS_BOUND);
    expect(second.more).toBe(true);
    expect(
      ids(takePage(items, { offset: second.next, limit: 10, map: identity, shorten: shortenStrings }).page),
    ).toEqual([2]);
  });
});

describe('the two modes are one mechanism', () => {
  it('on items that each fit a page, every page (items, end, more, next, last) is the same in both, within the bound', () => {
    // Sizes from a few tokens to a whole page, in an order that ends pages at every kind of place.
    const sizes = Array.from({ length: 60 }, (_, i) => [5, 18_998, 700, 9_000, 4_321, 12_000, 1][i % 7]! + i);
    const items = sizes.map((t, i) => item(i, Math.min(t, 18_980)));
    for (const i of items) expect(jsonCost(i) + 1).toBeLessThanOrEqual(ITEMS_BOUND);
    let pages = 0;
    for (const limit of [1, 3, 7, 100]) {
      for (let offset = 0; offset < items.length; offset++) {
        const plain = takePage(items, {
          offset: offset,
          limit: limit,
          map: identity,
          shorten: shortenStrings,
        });
        const anywhere = takePage(items, {
          offset: offset,
          limit: limit,
          map: identity,
          shorten: shortenStrings,
          cutAnywhere: CUT,
        });
        expect(anywhere, `offset ${offset}, limit ${limit}`).toEqual(plain);
        expect(plain.shortened).toEqual([]);
        expect(cost(plain.page)).toBeLessThanOrEqual(ITEMS_BOUND);
        pages++;
      }
    }
    expect(pages).toBe(240);
  });

  it('an item past the bound: both keep it cut within the bound, and count it as the page it is on', () => {
    const items = [item(0, 40_000), item(1, 12_000)];
    const plain = takePage(items, { limit: 10, map: identity, shorten: shortenStrings });
    const anywhere = takePage(items, { limit: 10, map: identity, shorten: shortenStrings, cutAnywhere: CUT });
    for (const r of [plain, anywhere]) {
      expect(r.shortened).toEqual([0]);
      expect(r.page[0]!.id).toBe(0);
      expect(cost(r.page)).toBeLessThanOrEqual(ITEMS_BOUND);
    }
    // The cursor tools' next page starts after it; the sql tool keeps the rest on this one.
    expect(plain.next).toBe(1);
    expect(ids(anywhere.page)).toEqual([0, 1]);
  });
});

describe('shortenStrings past what cutting strings can do', () => {
  it('the list of the most entries keeps as many as fit and says how many were left out; keys stay keys', () => {
    const value = JSON.parse(
      JSON.stringify({
        id: 'm1',
        seats: Array.from({ length: 20_000 }, (_, i) => i * 7919),
        tags: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`t${i}`, i])),
      }).replace('"t0"', '"__proto__"'),
    ) as { id: string; seats: unknown[]; tags: Record<string, unknown> };
    expect(jsonCost(value)).toBeGreaterThan(ITEMS_BOUND);
    const cut = shortenStrings(value, ITEMS_BOUND);
    expect(jsonCost(cut)).toBeLessThanOrEqual(ITEMS_BOUND);
    expect(jsonCost(cut)).toBeGreaterThan(0.95 * ITEMS_BOUND);
    expect(cut.id).toBe('m1');
    expect(cut.seats.at(-1)).toMatch(/^…\[cut: [\d,]+ more\]$/);
    const kept = cut.seats.length - 1;
    expect(cut.seats.at(-1)).toBe(`…[cut: ${(20_000 - kept).toLocaleString('en')} more]`);
    expect(cut.seats.slice(0, kept)).toEqual(value.seats.slice(0, kept));
    // The smaller list is whole, its "__proto__" an own key as JSON.parse made it.
    expect(cut.tags).toEqual(value.tags);
    expect(Object.keys(cut.tags)[0]).toBe('__proto__');
    // The value given is not changed.
    expect(value.seats).toHaveLength(20_000);
  });

  it('a list of 300,000 entries (a 2 MB meeting) is cut within the bound, not a stack overflow', () => {
    // Spreading the kept entries into push() passed each as an argument: past ~200,000 the call
    // overflowed the stack, and get_meeting answered "Maximum call stack size exceeded".
    const items = [{ id: 'm1', attendees: Array.from({ length: 300_000 }, (_, i) => `p${i}`) }];
    const r = takePage(items, { limit: 10, map: (i) => i, shorten: shortenStrings });
    expect(r.page).toHaveLength(1);
    expect(r.shortened).toEqual([0]);
    expect(jsonCost(r.page[0]) + 1).toBeLessThanOrEqual(ITEMS_BOUND);
    const attendees = r.page[0]!.attendees;
    expect(attendees.at(-1)).toBe(`…[cut: ${(300_001 - attendees.length).toLocaleString('en')} more]`);
    expect(attendees.slice(0, 3)).toEqual(['p0', 'p1', 'p2']);
  });
});

describe('shortenStrings: the bound is a bound, whatever the shape', () => {
  it('many lists, none of which alone is enough: cut until the item fits', () => {
    // 40 lists of 100 strings of 64 characters (too short to cut): 16 rounds of cutting the list of
    // the most entries left 96,503 tokens against a bound of 20,000.
    const value = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `list${i}`,
        Array.from({ length: 100 }, (_, j) => `${i}-${j}-`.padEnd(64, 'x')),
      ]),
    ) as Record<string, string[]>;
    expect(jsonCost(value)).toBeGreaterThan(5 * ITEMS_BOUND);
    const cut = shortenStrings(value, ITEMS_BOUND);
    expect(jsonCost(cut)).toBeLessThanOrEqual(ITEMS_BOUND);
    expect(jsonCost(cut)).toBeGreaterThan(0.9 * ITEMS_BOUND);
    // Every list still named; a list cut says how many of its entries were left out.
    expect(Object.keys(cut)).toEqual(Object.keys(value));
    expect(cut.list0).toEqual(['…[cut: 100 more]']);
    expect(cut.list39).toEqual(value.list39);
  });

  it('an entry whose key is huge: the entry is left out where it is, said so, the rest kept', () => {
    const huge = 'k'.repeat(200_000);
    const nested = { id: 'm1', extra: { [huge]: true } };
    const cut = shortenStrings(nested, ITEMS_BOUND);
    expect(jsonCost(cut)).toBeLessThanOrEqual(ITEMS_BOUND);
    expect(cut).toEqual({ id: 'm1', extra: { '…[cut]': '1 more' } });

    // The item's only entry: the item is its mark.
    const alone = shortenStrings({ [huge]: { [huge]: 1 } }, ITEMS_BOUND);
    expect(alone).toEqual({ '…[cut]': '1 more' });
    const r = takePage([{ [huge]: 1 }], { limit: 10, map: (i) => i, shorten: shortenStrings });
    expect(jsonCost(r.page[0]) + 1).toBeLessThanOrEqual(ITEMS_BOUND);
  });

  it('a huge key 255 levels down (as deep as a body may nest): left out there, every level beside it kept', () => {
    type Level = { inner: Level | Record<string, unknown>; side: number };
    let deep: Level | Record<string, unknown> = { ['k'.repeat(500_000)]: 1, small: 's' };
    for (let i = 0; i < 255; i++) deep = { inner: deep, side: i };
    const cut = shortenStrings(deep, ITEMS_BOUND);
    expect(jsonCost(cut)).toBeLessThanOrEqual(ITEMS_BOUND);
    let level = cut as Level;
    for (let i = 254; i >= 0; i--) {
      expect(level.side).toBe(i);
      level = level.inner as Level;
    }
    expect(level).toEqual({ small: 's', '…[cut]': '1 more' });
  });

  it('more lists over the room than the rounds cut: still within the room, the short fields kept', () => {
    // 270 lists each past the room: cutEntries' 200 rounds and the last resort's 64 cut one each,
    // and the item came out at 10,452 tokens against 500 (a meeting of 280 such lists: 337,072
    // tokens against 19,000, sent by get_meeting as it was).
    const meeting = {
      id: 'm1',
      name: 'Weekly',
      meta: Array.from({ length: 270 }, () => Array.from({ length: 280 }, () => 'ab')),
    };
    const cut = shortenStrings(meeting, 500);
    expect(jsonCost(cut)).toBeLessThanOrEqual(500);
    expect(cut.id).toBe('m1');
    expect(cut.name).toBe('Weekly');
    expect((cut as Record<string, unknown>)['…[cut]']).toBe('1 more');
  });
});

describe("shortenStrings and the server's own '…[cut' texts", () => {
  it('an object\'s "…[cut]" entry from the server is no count of mtg\'s: the mark counts what mtg left out', () => {
    const extra = { '…[cut]': '999,999,999 more', a: 1, ['k'.repeat(200_000)]: true };
    const cut = shortenStrings({ id: 'm1', extra }, ITEMS_BOUND);
    expect(jsonCost(cut)).toBeLessThanOrEqual(ITEMS_BOUND);
    // The huge key left out, and the server's entry, whose key the mark takes (it said 1,000,000,000).
    expect(cut).toEqual({ id: 'm1', extra: { a: 1, '…[cut]': '2 more' } });
  });

  it('a server\'s string "…[cut: 7 more]" in a list is an entry like any other, and the count is of entries', () => {
    // A list ending in such a text (or holding lists cut to their mark) was read as mtg's mark: its
    // number added to the count, and the entry dropped unsaid.
    const value: unknown[] = [
      '…[cut: 7 more]',
      'kept',
      ...Array.from({ length: 270 }, () => Array.from({ length: 280 }, () => 'ab')),
    ];
    const cut = shortenStrings(value, 500);
    expect(jsonCost(cut)).toBeLessThanOrEqual(500);
    const mark = cut.at(-1) as string;
    const left = Number(/^…\[cut: ([\d,]+) more\]$/.exec(mark)![1]!.replaceAll(',', ''));
    // What was kept and what the mark says was left out are the list's 272 entries.
    expect(cut.length - 1 + left).toBe(272);
    expect(cut).toContain('kept');
  });

  it("mtg's own mark, cut again (a tool's shortening cut once more), counts what both cuts left out", () => {
    const value = { id: 'm1', seats: Array.from({ length: 20_000 }, (_, i) => i * 7919) };
    const once = shortenStrings(value, 5_000);
    const twice = shortenStrings(once, 2_000);
    expect(jsonCost(twice)).toBeLessThanOrEqual(2_000);
    const kept = twice.seats.length - 1;
    expect(kept).toBeLessThan(once.seats.length - 1);
    expect(twice.seats.at(-1)).toBe(`…[cut: ${(20_000 - kept).toLocaleString('en')} more]`);
  });
});

describe("takePage and a tool's shortening that does not fit", () => {
  it('an item its tool shortened past the bound again (a note naming a long ID) is cut as any item is', () => {
    type Noted = { id: string; text: string; readWhole?: string };
    const items: Noted[] = [{ id: 'x'.repeat(60_000), text: 'word '.repeat(40_000) }];
    const noted = (i: Noted, room: number): Noted => ({
      ...shortenStrings(i, room - 300),
      readWhole: `SELECT json FROM action_items WHERE id = '${i.id}'`,
    });
    const r = takePage(items, { limit: 10, map: (i: Noted) => i, shorten: noted });
    expect(r.page).toHaveLength(1);
    expect(jsonCost(r.page[0]) + 1).toBeLessThanOrEqual(ITEMS_BOUND);
    expect(r.page[0]!.readWhole).toMatch(/^SELECT json FROM action_items WHERE id = 'x+…\[cut\]$/);
  });
});
