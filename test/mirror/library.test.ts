// The mirror as a library (what `mtg mcp` is built on): one Mirror opened once, read through
// MirrorReads, sees what a sync in another connection commits afterwards, at the next call, without
// being reopened; and its change log, SQL and status come from the same object.
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActionItem } from '../../src/api/endpoints.js';
import type { SourcePage } from '../../src/api/read-source.js';
import type * as S from '../../src/api/schemas.js';
import { type Mirror, openMirror } from '../../src/mirror/open.js';
import { MirrorReads } from '../../src/mirror/reads.js';
import { MATCH_END, MATCH_START } from '../../src/mirror/search.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { clientFor, engineSync, SMALL } from './helpers.js';

let sb: Sandbox;
let mirror: Mirror;
let sync: ReturnType<typeof engineSync>;

beforeAll(async () => {
  sb = await startSandbox({ limits: 'none', pageSize: 5, sizes: SMALL });
  sync = engineSync(sb, { transcripts: false });
  let dataDir = '';
  await sync({}, (m) => {
    dataDir = dirname(m.path);
  });
  mirror = openMirror({ profile: 'default', dataDir, baseUrl: sb.baseUrl, readonly: true });
});

afterAll(async () => {
  mirror?.close();
  await sb?.close();
});

async function all<T>(pages: AsyncIterable<SourcePage<T>> | Iterable<SourcePage<T>>): Promise<T[]> {
  const items: T[] = [];
  for await (const page of pages) items.push(...page.items);
  return items;
}

describe('the mirror library', () => {
  it('reads what a later sync committed, through the mirror it opened before that sync', async () => {
    const reads = new MirrorReads(mirror);
    const titles = async () =>
      (await all(reads.listActionItems({ assigneeType: 'Me', status: 'ALL' }).pages({}))).map(
        (item: S.ActionItem) => item.title,
      );
    const seqBefore = (await reads.status()).lastSeq;
    expect(await titles()).not.toContain('Call the library back');

    await createActionItem(clientFor(sb), { title: 'Call the library back' });
    await sync();

    expect(await titles()).toContain('Call the library back');
    const status = await reads.status();
    expect(status.lastSeq).toBeGreaterThan(seqBefore);
    expect(status.lastSync?.run).toBe(2);
    const created = [...reads.changes({ after: seqBefore, resources: ['action-items'] })];
    expect(created.map((e) => e.change)).toContain('created');
    const { columns, rows } = reads.sql(
      "SELECT count(*) AS n FROM action_items WHERE json LIKE '%library back%'",
    );
    expect(columns).toEqual(['n']);
    expect([...rows()]).toEqual([{ n: 1 }]);
  });

  it('finds with the same search as mtg find, and refuses a query FTS5 cannot parse with exit 2', () => {
    const reads = new MirrorReads(mirror);
    const hits = [...reads.find('budget', { kinds: ['notes'], limit: 3 })];
    expect(hits).toHaveLength(3);
    for (const hit of hits) {
      expect(hit.in).toBe('notes');
      expect(hit.snippet.split(MATCH_START).join('').split(MATCH_END).join('')).toMatch(/budget/i);
    }
    expect(() => reads.find('"')).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});
