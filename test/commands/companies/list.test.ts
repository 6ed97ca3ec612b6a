// `mtg companies list` in-process against the sandbox.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { fetchAll, queryOf, runRecordedInProcess } from '../../helpers/recorded.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, pageSize: 7, limits: 'none' });
});

afterAll(async () => {
  await sandbox?.close();
});

const run = (args: string[]) => runRecordedInProcess(sandbox, args);

describe('companies list', () => {
  it('prints every company; --tag is sent as repeated tagIds', async () => {
    const expected = await fetchAll(sandbox, '/companies');
    const r = await run(['companies', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);

    const t = await run(['companies', 'list', '--tag', '1', '--tag', '2', '--format', 'csv']);
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

  it('prints a table of domains and names', async () => {
    const r = await run(['companies', 'list', '--format', 'table']);
    expect(r.stdout.split('\n')[0]).toMatch(/^domain\s+name$/);
    expect(r.stdout).toMatch(/\nglobex\.example\s+Globex\n/);
  });

  it('rejects a bad --tag with exit 2', async () => {
    const r = await run(['companies', 'list', '--tag', '-1']);
    expect(r.code).toBe(2);
    expect(r.requests).toEqual([]);
  });
});
