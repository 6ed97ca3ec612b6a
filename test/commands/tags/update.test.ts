import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { runRecordedInProcess } from '../../helpers/recorded.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none', sizes: { meetings: 260 } });
});

afterAll(async () => {
  await sandbox?.close();
});

const run = (args: string[], input?: string) => runRecordedInProcess(sandbox, args, { input });

describe('tags update', () => {
  it('sends only the given fields', async () => {
    const r = await run(['tags', 'update', '1', '--description', 'Renamed by test', '--json']);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['PUT', '/tag/1', { description: 'Renamed by test' }],
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 1, description: 'Renamed by test' });

    const n = await run(['tags', 'update', '1', '--name', 'First tag', '--format', 'tsv']);
    expect(n.requests[0]!.body).toEqual({ name: 'First tag' });
    expect(n.stdout.split('\n')[1]).toBe('1\tFirst tag\tRenamed by test');
  });

  it('a rename onto a taken name is the same clear conflict', async () => {
    await run(['tags', 'create', 'Taken']);
    const r = await run(['tags', 'update', '2', '--name', 'Taken']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('A tag named "Taken" already exists');
  });

  it('an unknown tag exits 4', async () => {
    const r = await run(['tags', 'update', '99999', '--name', 'x']);
    expect(r.code).toBe(4);
  });

  it.each([
    [['1'], /nothing to update: give --name or --description/],
    [['abc', '--name', 'x'], /TAG_ID must be a positive whole number/],
    [['0', '--name', 'x'], /TAG_ID must be a positive whole number/],
    [['1', '--name', ''], /--name must not be empty/],
  ])('rejects %j with exit 2 and sends nothing', async (args, message) => {
    const r = await run(['tags', 'update', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.requests).toEqual([]);
  });
});
