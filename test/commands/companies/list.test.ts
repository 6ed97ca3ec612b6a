// `mtg companies list` in-process against the sandbox.
import { parse } from 'csv-parse/sync';
import { describe, expect } from 'vitest';
import { sandboxTest } from '../../helpers/fixtures.js';
import { fetchAll, queryOf } from '../../helpers/recorded.js';

const test = sandboxTest({ pageSize: 7, limits: 'none' });

describe('companies list', () => {
  test('prints every company; --tag is sent as repeated tagIds', async ({ sandbox, mtg }) => {
    const expected = await fetchAll(sandbox, '/companies');
    const r = await mtg(['companies', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);

    const t = await mtg(['companies', 'list', '--tag', '1', '--tag', '2', '--format', 'csv']);
    expect(t.code).toBe(0);
    expect(queryOf(t.requests[0]!)).toEqual({ tagIds: ['1', '2'] });
    const rows = parse(t.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual(
      await fetchAll(sandbox, '/companies?tagIds=1&tagIds=2').then((c) =>
        (c as Record<string, unknown>[]).map((x) => ({
          name: x.name,
          avatarUrl: x.avatarUrl ?? '',
          domain: x.domain,
        })),
      ),
    );
  });

  test('prints a table of domains and names', async ({ mtg }) => {
    const r = await mtg(['companies', 'list', '--format', 'table']);
    expect(r.stdout.split('\n')[0]).toMatch(/^domain\s+name$/);
    expect(r.stdout).toMatch(/\nglobex\.example\s+Globex\n/);
  });

  test('rejects a bad --tag with exit 2', async ({ mtg }) => {
    const r = await mtg(['companies', 'list', '--tag', '-1']);
    expect(r.code).toBe(2);
    expect(r.requests).toEqual([]);
  });
});
