// `mtg tags create` in-process against the sandbox.
import { parse } from 'csv-parse/sync';
import { describe, expect } from 'vitest';
import { sandboxTest } from '../../helpers/fixtures.js';

const test = sandboxTest({ limits: 'none', sizes: { meetings: 260 } });

describe('tags create', () => {
  test('posts the name and description and prints the tag in each format', async ({ mtg }) => {
    const r = await mtg(['tags', 'create', 'Hiring', '--description', 'Interview loops', '--json']);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body, q.status])).toEqual([
      ['POST', '/tag', { name: 'Hiring', description: 'Interview loops' }, 201],
    ]);
    const tag = JSON.parse(r.stdout);
    expect(tag).toEqual({ id: expect.any(Number), name: 'Hiring', description: 'Interview loops' });

    const csv = await mtg(['tag', 'create', 'Board', '--format', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.requests[0]!.body).toEqual({ name: 'Board' });
    expect(parse(csv.stdout, { columns: true })).toEqual([
      { id: expect.stringMatching(/^\d+$/), name: 'Board', description: '' },
    ]);

    const table = await mtg(['tags', 'create', 'Partners', '--format', 'table']);
    expect(table.stdout).toMatch(/^id\s+\d+\nname\s+Partners\n/);
  });

  test('says plainly that a name is taken (409, exit 1)', async ({ mtg }) => {
    await mtg(['tags', 'create', 'Dup']);
    const r = await mtg(['tags', 'create', 'Dup']);
    expect(r.code).toBe(1);
    expect(r.requests.map((q) => q.status)).toEqual([409]);
    expect(r.stderr.split('\n')[0]).toMatch(/^mtg: A tag named "Dup" already exists/);
    // Said once, not again as the server's text.
    expect(r.stderr.match(/already exists/g)).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

  test('rejects an empty name with exit 2 and sends nothing', async ({ mtg }) => {
    const r = await mtg(['tags', 'create', '  ']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the tag name must not be empty/);
    expect(r.requests).toEqual([]);
  });
});
