// `mtg action-items create` in-process against the sandbox: what is posted and printed, exit codes.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { runRecordedInProcess } from '../../helpers/recorded.js';

let sandbox: Sandbox;
let slow: Sandbox;

beforeAll(async () => {
  [sandbox, slow] = await Promise.all([
    startSandbox({ port: 0, pageSize: 10, limits: 'none' }),
    // Latency makes overlapping requests observable in the recorded arrival times.
    startSandbox({ port: 0, limits: 'none', latencyMs: 150 }),
  ]);
});

afterAll(async () => {
  await Promise.all([sandbox?.close(), slow?.close()]);
});

const run = (args: string[], options: { input?: string; sb?: Sandbox } = {}) =>
  runRecordedInProcess(options.sb ?? sandbox, args, options);

describe('action-items create', () => {
  it('posts the title, description and assignee and prints the item', async () => {
    const r = await run([
      'action-items',
      'create',
      'Send the roadmap',
      '--description',
      'Before Friday',
      '--assignee',
      '12',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      [
        'POST',
        '/action-items',
        { title: 'Send the roadmap', description: 'Before Friday', assigneeProfileId: 12 },
      ],
    ]);
    const item = JSON.parse(r.stdout);
    expect(item).toMatchObject({ title: 'Send the roadmap', status: 'PENDING', assignee: { profileId: 12 } });
  });

  it('sends only the title when nothing else is given, and prints csv', async () => {
    const r = await run(['action-items', 'create', 'Just a title', '--format', 'csv']);
    expect(r.code).toBe(0);
    expect(r.requests[0]!.body).toEqual({ title: 'Just a title' });
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.title).toBe('Just a title');
  });

  it.each([
    [['   '], /the title must not be empty/],
    [['x', '--assignee', 'abc'], /--assignee must be a positive whole number/],
    [['x', '--fields', 'nope'], /unknown field/],
  ])('rejects %j with exit 2 and sends nothing', async (args, message) => {
    const r = await run(['action-items', 'create', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.requests).toEqual([]);
  });
});
