// Pagination as a `for await` loop (after Octokit's paginate.iterator): follow Link rel="next" until
// there is none, never edit the cursor, and stop fetching as soon as the caller has enough items.

import type { z } from 'zod';
import { ExitCode, MtgError } from '../shared/errors.js';
import type { ApiClient } from './client.js';
import { findLink } from './link.js';
import { arrayOf, unlistedInArray } from './schemas.js';
import type { Query } from './url.js';

export interface Page<T> {
  items: T[];
  /** The URL this page was fetched from. */
  url: URL;
  /** The next page, or undefined on the last one. */
  next: URL | undefined;
  /** 1-based page number within this run. */
  number: number;
  /** More items exist beyond what was yielded (on this page past --limit, or on later pages). */
  more: boolean;
}

export interface PaginateOptions<T> {
  path: string;
  query?: Query;
  /** The schema of one item; each page is validated as an array of it. */
  item: z.ZodType<T>;
  /** Resume from a recorded next link instead of the first page (--checkpoint). */
  startUrl?: URL;
  /** Stop after this many items in all (--limit); no page is fetched once they are out. */
  limit?: number;
  /** Safety bound on pages, so a server that links in circles cannot loop forever. */
  maxPages?: number;
}

export async function* paginatePages<T>(
  client: ApiClient,
  options: PaginateOptions<T>,
): AsyncGenerator<Page<T>> {
  // Made once per export (compiled by zod, or generated at build time: schemas.ts), not per page.
  const schema = arrayOf(options.item);
  const unlisted = unlistedInArray(options.item);
  const maxPages = options.maxPages ?? 1_000_000;
  const seen = new Set<string>();
  let remaining = options.limit ?? Number.POSITIVE_INFINITY;
  let next: URL | undefined = options.startUrl;
  let first = next === undefined;
  for (let number = 1; number <= maxPages && remaining > 0 && (first || next); number++) {
    const res = await client.request(
      first
        ? { method: 'GET', path: options.path, query: options.query, schema, unlisted }
        : { method: 'GET', url: next, schema, unlisted },
    );
    first = false;
    const items = res.data as T[];
    next = findLink(res.headers.link, 'next', res.url);
    if (next) {
      if (seen.has(next.href))
        throw new MtgError(
          `The server's next link repeats a page already fetched (${next.pathname})`,
          ExitCode.api,
        );
      seen.add(next.href);
    }
    const taken = items.length > remaining ? items.slice(0, remaining) : items;
    remaining -= taken.length;
    yield {
      items: taken,
      url: res.url,
      next,
      number,
      more: taken.length < items.length || next !== undefined,
    };
  }
}

/** Items one at a time, across every page. */
export async function* paginate<T>(client: ApiClient, options: PaginateOptions<T>): AsyncGenerator<T> {
  for await (const page of paginatePages(client, options)) yield* page.items;
}
