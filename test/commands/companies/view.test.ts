// `mtg companies view DOMAIN` in-process against the sandbox.
import { parse } from 'csv-parse/sync';
import { describe, expect } from 'vitest';
import { sandboxTest } from '../../helpers/fixtures.js';
import { fetchJson } from '../../helpers/recorded.js';

const test = sandboxTest({ pageSize: 7, limits: 'none' });

describe('companies view', () => {
  test('prints the company detail as json exactly as sent', async ({ sandbox, mtg }) => {
    const expected = await fetchJson(sandbox, '/company/globex.example');
    const r = await mtg(['companies', 'view', 'globex.example', '--json']);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path])).toEqual([['GET', '/company/globex.example']]);
    expect(JSON.parse(r.stdout)).toEqual(expected);
  });

  test('shows the company, its links and its people readably in a table', async ({ sandbox, mtg }) => {
    const company = (await fetchJson(sandbox, '/company/globex.example')) as {
      externalLinks: { url: string }[];
      people: { email: string }[];
    };
    const r = await mtg(['companies', 'view', 'globex.example', '--format', 'table']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Globex (globex.example)');
    expect(r.stdout).toContain(`\nExternal links (${company.externalLinks.length})\n`);
    expect(r.stdout).toContain(`\nPeople (${company.people.length})\n`);
    for (const link of company.externalLinks) expect(r.stdout).toContain(link.url);
    for (const p of company.people) expect(r.stdout).toContain(p.email.slice(0, 20));
    expect(r.stdout).toMatch(/\nid\s+firstName\s+lastName\s+email/);
  });

  test('prints csv with one row', async ({ mtg }) => {
    const r = await mtg(['companies', 'view', 'globex.example', '--format', 'csv']);
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Globex', domain: 'globex.example' });
  });

  test('an unknown domain exits 4; a malformed one exits 2 before sending', async ({ mtg }) => {
    const r = await mtg(['companies', 'view', 'nowhere.example']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/not found/);
    const bad = await mtg(['companies', 'view', 'a/b']);
    expect(bad.code).toBe(2);
    expect(bad.requests).toEqual([]);
  });
});
