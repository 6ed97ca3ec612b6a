// mtg tags create|update|apply against the sandbox.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { fetchAll, runRecorded } from '../helpers/recorded.js';

let sandbox: Sandbox;
let meetingIds: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none', sizes: { meetings: 260 } });
  meetingIds = ((await fetchAll(sandbox, '/meetings')) as { id: string }[]).map((m) => m.id);
});

afterAll(async () => {
  await sandbox?.close();
});

const run = (args: string[], input?: string) => runRecorded(sandbox, args, { input });

describe('tags create', () => {
  it('posts the name and description and prints the tag in each format', async () => {
    const r = await run(['tags', 'create', 'Hiring', '--description', 'Interview loops', '--json']);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body, q.status])).toEqual([
      ['POST', '/tag', { name: 'Hiring', description: 'Interview loops' }, 201],
    ]);
    const tag = JSON.parse(r.stdout);
    expect(tag).toEqual({ id: expect.any(Number), name: 'Hiring', description: 'Interview loops' });

    const csv = await run(['tag', 'create', 'Board', '--format', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.requests[0]!.body).toEqual({ name: 'Board' });
    expect(parse(csv.stdout, { columns: true })).toEqual([
      { id: expect.stringMatching(/^\d+$/), name: 'Board', description: '' },
    ]);

    const table = await run(['tags', 'create', 'Partners', '--format', 'table']);
    expect(table.stdout).toMatch(/^id\s+\d+\nname\s+Partners\n/);
  });

  it('says plainly that a name is taken (409, exit 1)', async () => {
    await run(['tags', 'create', 'Dup']);
    const r = await run(['tags', 'create', 'Dup']);
    expect(r.code).toBe(1);
    expect(r.requests.map((q) => q.status)).toEqual([409]);
    expect(r.stderr.split('\n')[0]).toMatch(/^mtg: A tag named "Dup" already exists/);
    // Said once, not again as the server's text.
    expect(r.stderr.match(/already exists/g)).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

  it('rejects an empty name with exit 2 and sends nothing', async () => {
    const r = await run(['tags', 'create', '  ']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the tag name must not be empty/);
    expect(r.requests).toEqual([]);
  });
});

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

describe('tags apply', () => {
  it('puts a tag on a few meetings and prints them', async () => {
    const ids = meetingIds.slice(0, 3);
    const r = await run(['tags', 'apply', '2', ...ids, ids[0]!, '--json']);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['PUT', '/tag', { tagId: 2, meetingIds: ids }],
    ]);
    const meetings = JSON.parse(r.stdout) as { id: string; tags: { id: number }[] }[];
    expect(meetings.map((m) => m.id)).toEqual(ids);
    for (const m of meetings) expect(m.tags.map((t) => t.id)).toContain(2);

    const csv = await run(['tags', 'apply', '2', ids[0]!, '--format', 'csv', '--fields', 'id,tags']);
    expect(parse(csv.stdout, { columns: true })).toEqual([{ id: ids[0], tags: expect.any(String) }]);
  });

  it('sends many meetings from --stdin in batches of 100; a failed batch is reported and the exit code is 6', async () => {
    const ids = meetingIds.slice(0, 250);
    ids.splice(150, 0, 'mtg_does_not_exist'); // lands in the second batch
    const r = await run(['tags', 'apply', '3', '--stdin', '--json'], `${ids.join('\n')}\n`);
    expect(r.code).toBe(6);
    const puts = r.requests.filter((q) => q.method === 'PUT');
    const bodies = puts.map((q) => q.body as { tagId: number; meetingIds: string[] });
    expect(bodies.map((b) => b.meetingIds.length).sort((a, b) => b - a)).toEqual([100, 100, 51]);
    expect(bodies.flatMap((b) => b.meetingIds).sort()).toEqual([...ids].sort());
    // stdout: the meetings of the batches that applied, in input order.
    const printed = (JSON.parse(r.stdout) as { id: string }[]).map((m) => m.id);
    expect(printed).toEqual([...ids.slice(0, 100), ...ids.slice(200)]);
    expect(r.stderr).toMatch(
      /tag 3: 100 meetings not tagged \(batch 2 of 3: \S+ … \S+\): Meeting\(s\) not found: mtg_does_not_exist/,
    );
    expect(r.stderr).toContain('Tagged 151 of 251 meetings with tag 3; 1 of 3 batches failed');
  });

  it('an unknown tag fails every batch: exit 4', async () => {
    const r = await run(['tags', 'apply', '99999', meetingIds[0]!]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/Tag 99999 not found/);
  });

  it.each([
    [['3'], /no meeting IDs given/],
    [['x', meetingIds?.[0] ?? 'm1'], /TAG_ID must be a positive whole number/],
    [['3', 'has space'], /meeting ID "has space" contains characters an ID cannot have/],
    [['3', 'm1', '--fields', 'nope'], /unknown field/],
  ])('rejects %j with exit 2 and sends nothing', async (args, message) => {
    const r = await run(['tags', 'apply', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.requests).toEqual([]);
  });
});
