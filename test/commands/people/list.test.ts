// `mtg people list` in-process against the sandbox.
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

describe('people list', () => {
  it('prints every person of every page as json, sending no filter', async () => {
    const expected = await fetchAll(sandbox, '/people');
    const r = await run(['people', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    expect(r.requests).toHaveLength(Math.ceil(expected.length / 7));
    expect(queryOf(r.requests[0]!)).toEqual({});
  });

  it('sends repeated domains and tag IDs', async () => {
    const r = await run([
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

  it('prints csv, tsv and a table', async () => {
    const expected = (await fetchAll(sandbox, '/people?domains=globex.example')) as {
      id: number;
      email: string;
    }[];
    const csv = await run(['people', 'list', '--domain', 'globex.example', '--format', 'csv']);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => [Number(row.id), row.email])).toEqual(expected.map((p) => [p.id, p.email]));

    const tsv = await run(['people', 'list', '--domain', 'globex.example', '--fields', 'id,email']);
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

  it.each([
    [['--domain', 'not a domain'], /--domain must be a domain name such as acme.com/],
    [['--domain', 'https://acme.com/x'], /--domain must be a domain name/],
    [['--tag', 'x'], /--tag must be a positive whole number/],
  ])('rejects %j with exit 2 and sends nothing', async (flags, message) => {
    const r = await run(['people', 'list', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.requests).toEqual([]);
  });
});
