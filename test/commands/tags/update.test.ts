import { describe, expect } from 'vitest';
import { sandboxTest } from '../../helpers/fixtures.js';

const test = sandboxTest({ limits: 'none', sizes: { meetings: 260 } });

describe('tags update', () => {
  test('sends only the given fields', async ({ mtg }) => {
    const r = await mtg(['tags', 'update', '1', '--description', 'Renamed by test', '--json']);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['PUT', '/tag/1', { description: 'Renamed by test' }],
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 1, description: 'Renamed by test' });

    const n = await mtg(['tags', 'update', '1', '--name', 'First tag', '--format', 'tsv']);
    expect(n.requests[0]!.body).toEqual({ name: 'First tag' });
    expect(n.stdout.split('\n')[1]).toBe('1\tFirst tag\tRenamed by test');
  });

  test('a rename onto a taken name is the same clear conflict', async ({ mtg }) => {
    await mtg(['tags', 'create', 'Taken']);
    const r = await mtg(['tags', 'update', '2', '--name', 'Taken']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('A tag named "Taken" already exists');
  });

  test('an unknown tag exits 4', async ({ mtg }) => {
    const r = await mtg(['tags', 'update', '99999', '--name', 'x']);
    expect(r.code).toBe(4);
  });

  test.for<[string[], RegExp]>([
    [['1'], /nothing to update: give --name or --description/],
    [['abc', '--name', 'x'], /TAG_ID must be a positive whole number/],
    [['0', '--name', 'x'], /TAG_ID must be a positive whole number/],
    [['1', '--name', ''], /--name must not be empty/],
  ])('rejects %j with exit 2 and sends nothing', async ([args, message], { mtg }) => {
    const r = await mtg(['tags', 'update', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.requests).toEqual([]);
  });
});
