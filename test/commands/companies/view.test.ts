// `mtg companies view DOMAIN` in-process against the sandbox.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { fetchJson, runRecordedInProcess } from '../../helpers/recorded.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, pageSize: 7, limits: 'none' });
});

afterAll(async () => {
  await sandbox?.close();
});

const run = (args: string[]) => runRecordedInProcess(sandbox, args);

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
