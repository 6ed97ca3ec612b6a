// mtg people list, companies list and companies view against the sandbox.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { fetchAll, fetchJson, queryOf, runRecorded } from '../helpers/recorded.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, pageSize: 7, limits: 'none' });
});

afterAll(async () => {
  await sandbox?.close();
});

const run = (args: string[]) => runRecorded(sandbox, args);

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
    const table = await runRecorded(
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

describe('companies view', () => {
  it('prints the company detail as json exactly as sent', async () => {
    const expected = await fetchJson(sandbox, '/company/globex.example');
    const r = await run(['companies', 'view', 'globex.example', '--json']);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path])).toEqual([['GET', '/company/globex.example']]);
    expect(JSON.parse(r.stdout)).toEqual(expected);
  });

  it('shows the company, its links and its people readably in a table', async () => {
    const company = (await fetchJson(sandbox, '/company/globex.example')) as {
      externalLinks: { url: string }[];
      people: { email: string }[];
    };
    const r = await run(['companies', 'view', 'globex.example', '--format', 'table']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Globex (globex.example)');
    expect(r.stdout).toContain(`\nExternal links (${company.externalLinks.length})\n`);
    expect(r.stdout).toContain(`\nPeople (${company.people.length})\n`);
    for (const link of company.externalLinks) expect(r.stdout).toContain(link.url);
    for (const p of company.people) expect(r.stdout).toContain(p.email.slice(0, 20));
    expect(r.stdout).toMatch(/\nid\s+firstName\s+lastName\s+email/);
  });

  it('prints csv with one row', async () => {
    const r = await run(['companies', 'view', 'globex.example', '--format', 'csv']);
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Globex', domain: 'globex.example' });
  });

  it('an unknown domain exits 4; a malformed one exits 2 before sending', async () => {
    const r = await run(['companies', 'view', 'nowhere.example']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/not found/);
    const bad = await run(['companies', 'view', 'a/b']);
    expect(bad.code).toBe(2);
    expect(bad.requests).toEqual([]);
  });
});
