// The companies' details (GET /company/{domain}) in a sync: fetched for new and changed companies
// only, counted in the summary's requests and in --budget, resumed where a budget stopped them, a
// 404 (the company deleted meanwhile) not an error, and a progress phase of their own.
import { describe, expect, it } from 'vitest';
import { openMirror } from '../../src/mirror/open.js';
import { runSync } from '../../src/mirror/sync.js';
import { generateStore } from '../../src/sandbox/data.js';
import { tempDir } from '../helpers/temp.js';
import { clientFor, engineSync, mirrorEnvs, SMALL, sql } from './helpers.js';

const env = mirrorEnvs();
const detailRequests = (paths: string[]) => paths.filter((p) => p.startsWith('/company/')).length;

describe('sync: company details', () => {
  it('fetches each new company once, within --budget, resuming where the budget stopped it; --full fetches all again', async () => {
    const m = await env({ seed: 5 });
    const sync = engineSync(m.sandbox);
    const paths = () => m.sandbox.requests.map((r) => r.path);
    // Enough for the list walks and two details: the details are counted in the budget.
    const lists = (await engineSync(m.sandbox)({ transcripts: false })).summary.requests - SMALL.companies;
    let seen = paths().length;
    const first = await sync({ transcripts: false, budget: lists + 2 });
    expect(first.summary.complete).toBe(false);
    expect(first.summary.requests).toBe(lists + 2);
    expect(detailRequests(paths().slice(seen))).toBe(2);
    expect(first.events.some((e) => e.phase === 'company-details')).toBe(true);

    seen = paths().length;
    const second = await sync({ transcripts: false });
    expect(second.summary.complete).toBe(true);
    // Only the details still missing, and the summary's requests count them.
    expect(detailRequests(paths().slice(seen))).toBe(SMALL.companies - 2);
    expect(second.summary.requests).toBe(paths().length - seen);
    expect(second.events.filter((e) => e.phase === 'company-details').at(-1)).toMatchObject({
      items: SMALL.companies - 2,
      done: true,
    });

    seen = paths().length;
    await sync({ transcripts: false });
    expect(detailRequests(paths().slice(seen))).toBe(0);
    seen = paths().length;
    await sync({ transcripts: false, full: true });
    expect(detailRequests(paths().slice(seen))).toBe(SMALL.companies);
  }, 120_000);

  it('a company deleted between its walk and its detail (404) is skipped: the sync completes', async () => {
    const store = generateStore(7, SMALL);
    const m = await env({ store });
    const mirror = openMirror({
      profile: 'default',
      dataDir: tempDir('mtg-engine-'),
      baseUrl: m.sandbox.baseUrl,
    });
    try {
      let removed: string | undefined;
      const summary = await runSync(clientFor(m.sandbox), mirror, { transcripts: false }, (e) => {
        if (e.phase === 'company-details' && removed === undefined) {
          removed = store.companies.pop()!.domain;
        }
      });
      expect(removed).toBeDefined();
      expect(summary.complete).toBe(true);
      const notFound = m.sandbox.requests.filter((r) => r.path === `/company/${removed}`);
      expect(notFound.map((r) => r.status)).toEqual([404]);
      const withDetail = sql<{ n: number }>(
        mirror.path,
        'SELECT count(*) AS n FROM companies WHERE detail_json IS NOT NULL',
      )[0]!.n;
      expect(withDetail).toBe(SMALL.companies - 1);
    } finally {
      mirror.close();
    }
  }, 60_000);
});
