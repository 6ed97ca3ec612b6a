// The offline listings' iteration helpers (reads.ts): lazily produced items cut into pages, and a
// lazy filter-map. Nothing here touches the database.

import type { SourcePage } from '../api/read-source.js';

/** Items per page offline: only progress and the "more exist" note see pages. */
const PAGE_SIZE = 100;

/** Items (lazily produced, already filtered) cut into pages; `limit` stops early and tells if more exist. */
export function* pagesOf<T>(items: Iterable<T>, limit: number | undefined): Generator<SourcePage<T>> {
  const max = limit ?? Number.POSITIVE_INFINITY;
  const it = items[Symbol.iterator]();
  let number = 0;
  let taken = 0;
  let page: T[] = [];
  try {
    let current = it.next();
    while (!current.done) {
      page.push(current.value);
      taken++;
      const lookahead = it.next(); // also at the limit: tells whether more exist
      if (taken >= max || page.length === PAGE_SIZE || lookahead.done) {
        yield { items: page, next: undefined, number: ++number, more: !lookahead.done };
        page = [];
        if (taken >= max) return;
      }
      current = lookahead;
    }
    if (number === 0) yield { items: [], next: undefined, number: 1, more: false };
  } finally {
    it.return?.();
  }
}

/** `f` of each item, leaving out the undefined ones, lazily. */
export function* mapFilter<A, B>(items: Iterable<A>, f: (a: A) => B | undefined): Generator<B> {
  for (const a of items) {
    const b = f(a);
    if (b !== undefined) yield b;
  }
}
