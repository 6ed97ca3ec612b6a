// Pagination as a `for await` loop (after Octokit's paginate.iterator): follow Link rel="next" until
// there is none, never edit the cursor, and stop fetching as soon as the caller has enough items.

import { z } from 'zod';
import type { ApiClient } from './client.js';
import { ExitCode, MtgError } from './errors.js';
import { findLink } from './link.js';
import { unlistedInArray } from './schemas.js';
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
  // Only while pages arrive: what runs after the export (--jq over the whole document) gets V8's
  // own sizing back (bounded, jq-web over 100,000 items took 1.3x as long: bench figure f).
  boundYoungGeneration(+1);
  try {
    yield* pages(client, options);
  } finally {
    boundYoungGeneration(-1);
  }
}

async function* pages<T>(client: ApiClient, options: PaginateOptions<T>): AsyncGenerator<Page<T>> {
  // Compiled once per export (about 2 ms): zod generates a validator for this exact shape, about
  // 3x faster than its interpreter on every page (the client validates each page with it).
  const schema = z.compile(z.array(options.item));
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

/**
 * Keeps V8's young generation at the size start-up left it (usually 2 x 2 MB), for the rest of the
 * process. Each scavenge during a paged read finds the page in flight alive (100-250 kB), and V8
 * doubles the young generation whenever the bytes that survived since its last growth exceed its
 * size: so however little stays alive, a long export grew it to 2 x 8 MB (json, ndjson) or 2 x 16 MB
 * (csv), +10 to +25 MB of peak RSS at 100,000 items, for no gain in speed (bench figure c,
 * bench/README). `--max-semi-space-size` is read only when the heap is set up: set here, it does
 * nothing. The growth factor is read at each growth, and 1 makes a growth add nothing; V8 raises a
 * factor below 2 only when it sets the heap up, so it must be set now, not on node's command line.
 */
let pagedReads = 0;
function boundYoungGeneration(change: 1 | -1): void {
  pagedReads += change;
  if (pagedReads !== (change === 1 ? 1 : 0)) return; // another paged read is under way
  try {
    // 2 is V8's default (and its minimum at set-up).
    const factor = change === 1 ? 1 : 2;
    process.getBuiltinModule?.('node:v8')?.setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  } catch {
    // A node without the flag: V8's own sizing, as before.
  }
}

/** Items one at a time, across every page. */
export async function* paginate<T>(client: ApiClient, options: PaginateOptions<T>): AsyncGenerator<T> {
  for await (const page of paginatePages(client, options)) yield* page.items;
}
