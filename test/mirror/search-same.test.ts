// findPassages (`mtg find`, the MCP server's `search`, which pages it by limit) ranks the same way
// whatever the limit: the first N hits of a search are the first N of the same search with a larger
// limit or none, for keywords and questions, every filter; the filters keep only what they name.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../../bench/mirror-fixture.js';
import { type Db, openDb } from '../../src/mirror/driver.js';
import { type FindOptions, findPassages, type PassageHit, planSearch } from '../../src/mirror/search.js';
import { tempDir } from '../helpers/temp.js';

const QUERIES = [
  'roadmap',
  'budget approval',
  '"pricing proposal"',
  'road*',
  'pricing OR roadmap',
  'budget -approval',
  'what did the team decide about the pricing proposal?',
  'zanzibarium',
  'the',
];
const FILTERS: Omit<FindOptions, 'limit'>[] = [
  {},
  { kinds: ['transcript'] },
  { kinds: ['name', 'notes'] },
  { since: '2026-10-20T00:00:00.000Z' },
  { until: '2026-10-25T12:00:00.000Z', kinds: ['transcript', 'name'] },
];

describe('findPassages ranks the same whatever the limit', () => {
  let db: Db;
  beforeAll(() => {
    const dir = tempDir('mtg-search-same-');
    buildFixture({
      dataDir: dir,
      meetings: 40,
      transcriptBytes: 2000,
      seed: 7,
      rareEvery: 6,
      rareWord: 'zanzibarium',
    });
    db = openDb(join(dir, 'default.db'), { readonly: true });
  }, 120_000);
  afterAll(() => db?.close());

  it('the first N hits are the first N of every larger limit; filters keep only their kinds and dates', () => {
    let compared = 0;
    for (const query of QUERIES)
      for (const filter of FILTERS) {
        const all = [...findPassages(db, planSearch(db, query), filter)];
        for (const limit of [1, 7, 20]) {
          const some = [...findPassages(db, planSearch(db, query), { ...filter, limit })];
          expect(some, `${query} ${JSON.stringify(filter)} ${limit}`).toEqual(all.slice(0, limit));
          compared++;
        }
        for (const h of all as PassageHit[]) {
          if (filter.kinds) expect(filter.kinds).toContain(h.in);
          if (filter.since) expect(h.createdAt! >= filter.since).toBe(true);
          if (filter.until) expect(h.createdAt! < filter.until).toBe(true);
        }
      }
    expect(compared).toBe(QUERIES.length * FILTERS.length * 3);
    expect(
      [...findPassages(db, planSearch(db, 'what did the team decide about the pricing proposal?'))].length,
    ).toBeGreaterThan(20);
  }, 120_000);
});
