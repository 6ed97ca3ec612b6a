// `mtg api` in-process against the sandbox: raw requests with the CLI's auth, paging and exit codes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { sandboxTest } from '../../helpers/fixtures.js';
import { fetchAll, fetchJson, queryOf, runRecordedInProcess } from '../../helpers/recorded.js';
import { tempDir } from '../../helpers/temp.js';

const dir = tempDir('mtg-api-test-');
const test = sandboxTest({ pageSize: 9, limits: 'none' });

describe('api', () => {
  test('GET --paginate prints every item of every page as one json array', async ({ sandbox, mtg }) => {
    const expected = await fetchAll(sandbox, '/action-items?assigneeType=Anyone&status=ALL');
    const r = await mtg(['api', '/action-items?assigneeType=Anyone', '-F', 'status=ALL', '--paginate']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    expect(r.requests).toHaveLength(Math.ceil(expected.length / 9));
    expect(r.requests.every((q) => q.method === 'GET')).toBe(true);
    expect(queryOf(r.requests[0]!)).toEqual({ assigneeType: ['Anyone'], status: ['ALL'] });
  });

  test('--paginate --format ndjson prints one item per line; --limit stops early', async ({
    sandbox,
    mtg,
  }) => {
    const expected = await fetchAll(sandbox, '/people');
    const r = await mtg(['api', '/people', '--paginate', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(expected);

    const l = await mtg(['api', '/people', '--paginate', '--limit', '10']);
    expect(JSON.parse(l.stdout)).toEqual(expected.slice(0, 10));
    expect(l.requests).toHaveLength(2);
  });

  test('--limit without --paginate is exit 2 before anything is sent', async ({ mtg }) => {
    const r = await mtg(['api', '/people', '--fields', 'email', '--limit', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('mtg: --limit needs --paginate\n');
    expect(r.stdout).toBe('');
    expect(r.requests).toHaveLength(0);
  });

  test('without --paginate prints the one response body (compact when piped)', async ({ sandbox, mtg }) => {
    const expected = await fetchJson(sandbox, '/company/globex.example');
    const r = await mtg(['api', '/company/globex.example']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(expected)}\n`);
    expect(r.requests).toHaveLength(1);
  });

  test('GET fields are query parameters; repeated keys repeat', async ({ mtg }) => {
    const r = await mtg([
      'api',
      '/people',
      '-X',
      'get',
      '-F',
      'limit=2',
      '-f',
      'domains=globex.example',
      '-f',
      'domains=hooli.example',
    ]);
    expect(r.code).toBe(0);
    expect(queryOf(r.requests[0]!)).toEqual({ limit: ['2'], domains: ['globex.example', 'hooli.example'] });
    expect(JSON.parse(r.stdout).length).toBeLessThanOrEqual(2);
  });

  test('fields imply POST with a typed JSON body (-F types, -f keeps strings)', async ({ mtg }) => {
    const r = await mtg([
      'api',
      '/action-items',
      '-F',
      'title=From api',
      '-F',
      'assigneeProfileId=12',
      '-f',
      'description=42',
    ]);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['POST', '/action-items', { title: 'From api', assigneeProfileId: 12, description: '42' }],
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({ title: 'From api', assignee: { profileId: 12 } });

    const n = await mtg(['api', '/action-item/1', '-X', 'PUT', '-F', 'assigneeProfileId=null']);
    expect(n.code).toBe(0);
    expect(n.requests[0]!.body).toEqual({ assigneeProfileId: null });
  });

  test('--input sends a JSON body from a file or stdin', async ({ mtg }) => {
    const file = join(dir, 'body.json');
    writeFileSync(file, JSON.stringify({ description: 'from a file' }));
    const r = await mtg(['api', '/tag/1', '-X', 'PUT', '--input', file]);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['PUT', '/tag/1', { description: 'from a file' }],
    ]);
    const s = await mtg(['api', '/tag', '--input', '-'], { input: '{"name":"From stdin"}' });
    expect(s.code).toBe(0);
    expect(s.requests.map((q) => [q.method, q.body])).toEqual([['POST', { name: 'From stdin' }]]);
  });

  test('HTTP errors exit with the contract codes', async ({ sandbox, mtg }) => {
    const notFound = await mtg(['api', '/company/nowhere.example']);
    expect(notFound.code).toBe(4);
    expect(notFound.stderr).toMatch(/not found/);
    const invalid = await mtg(['api', '/action-items', '-f', 'assigneeProfileId=12', '-F', 'title=x']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/assigneeProfileId/);
    const dup = await mtg(['api', '/tag', '-F', 'name=Twice']);
    expect(dup.code).toBe(0);
    const conflict = await mtg(['api', '/tag', '-F', 'name=Twice']);
    expect(conflict.code).toBe(1);
    const auth = await runRecordedInProcess(sandbox, ['api', '/people'], { env: { MTG_API_KEY: 'nope' } });
    expect(auth.code).toBe(3);
  });

  test.for<[string[], string, RegExp]>([
    [['/tag', '--input', '-'], '{bad', /--input stdin is not valid JSON/],
    [['/tag', '--input', 'MISSING'], '', /cannot read --input "MISSING"/],
    [['people'], '', /PATH must start with "\/"/],
    [['/people', '-X', 'FETCH'], '', /Invalid --method "FETCH"/],
    [['/people', '-X', 'POST', '--paginate'], '', /--paginate follows pages of GET requests, not POST/],
    [['/people', '-X', 'GET', '--input', '-'], '{}', /GET requests do not have/],
    [['/people', '-F', 'novalue'], '', /Invalid field "novalue": expected key=value/],
    [['/people', '--format', 'csv'], '', /Invalid --format "csv" for mtg api/],
  ])('rejects %j with exit 2 and sends nothing', async ([args, input, message], { mtg }) => {
    const r = await mtg(['api', ...args], { input });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.requests).toEqual([]);
  });
});
