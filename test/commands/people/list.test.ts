// `mtg people list` in-process against the sandbox.
import { parse } from 'csv-parse/sync';
import { describe, expect } from 'vitest';
import { sandboxTest } from '../../helpers/fixtures.js';
import { fetchAll, queryOf, runRecordedInProcess } from '../../helpers/recorded.js';

const test = sandboxTest({ pageSize: 7, limits: 'none' });

describe('people list', () => {
  test('prints every person of every page as json, sending no filter', async ({ sandbox, mtg }) => {
    const expected = await fetchAll(sandbox, '/people');
    const r = await mtg(['people', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    expect(r.requests).toHaveLength(Math.ceil(expected.length / 7));
    expect(queryOf(r.requests[0]!)).toEqual({});
  });

  test('sends repeated domains and tag IDs', async ({ mtg }) => {
    const r = await mtg([
      'people',
      'list',
      '--domain',
      'globex.example',
      '--domain',
      'Initech.example,hooli.example',
      '--tag',
      '1,2',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(queryOf(r.requests[0]!)).toEqual({
      domains: ['globex.example', 'initech.example', 'hooli.example'],
      tagIds: ['1', '2'],
    });
    const people = JSON.parse(r.stdout) as { companyName: string }[];
    expect(people.length).toBeGreaterThan(0);
  });

  test('prints csv, tsv and a table', async ({ sandbox, mtg }) => {
    const expected = (await fetchAll(sandbox, '/people?domains=globex.example')) as {
      id: number;
      email: string;
    }[];
    const csv = await mtg(['people', 'list', '--domain', 'globex.example', '--format', 'csv']);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => [Number(row.id), row.email])).toEqual(expected.map((p) => [p.id, p.email]));

    const tsv = await mtg(['people', 'list', '--domain', 'globex.example', '--fields', 'id,email']);
    expect(tsv.stdout).toBe(`id\temail\n${expected.map((p) => `${p.id}\t${p.email}`).join('\n')}\n`);

    // 100 columns: every header whole (a pipe's table is 80 columns unless COLUMNS says).
    const table = await runRecordedInProcess(
      sandbox,
      ['people', 'list', '--domain', 'globex.example', '--format', 'table'],
      {
        env: { COLUMNS: '100' },
      },
    );
    expect(table.stdout.split('\n')[0]).toMatch(/^id\s+firstName\s+lastName\s+email\s+companyName\s+title$/);
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(expected.length + 1);
  });

  test.for<[string[], RegExp]>([
    [['--domain', 'not a domain'], /--domain must be a domain name such as acme.com/],
    [['--domain', 'https://acme.com/x'], /--domain must be a domain name/],
    [['--tag', 'x'], /--tag must be a positive whole number/],
  ])('rejects %j with exit 2 and sends nothing', async ([flags, message], { mtg }) => {
    const r = await mtg(['people', 'list', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.requests).toEqual([]);
  });
});
