// `mtg tags apply` in-process against the sandbox: batches of 100, failed batches, exit codes.
import { parse } from 'csv-parse/sync';
import { describe, expect } from 'vitest';
import { sandboxTest } from '../../helpers/fixtures.js';
import { fetchAll } from '../../helpers/recorded.js';

// meetingIds: the sandbox's meeting IDs as GET /meetings pages them, read once for the file.
const test = sandboxTest({ limits: 'none', sizes: { meetings: 260 } }).extend(
  'meetingIds',
  { scope: 'file' },
  async ({ sandbox }) => ((await fetchAll(sandbox, '/meetings')) as { id: string }[]).map((m) => m.id),
);

describe('tags apply', () => {
  test('puts a tag on a few meetings and prints them', async ({ meetingIds, mtg }) => {
    const ids = meetingIds.slice(0, 3);
    const r = await mtg(['tags', 'apply', '2', ...ids, ids[0]!, '--json']);
    expect(r.code).toBe(0);
    expect(r.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['PUT', '/tag', { tagId: 2, meetingIds: ids }],
    ]);
    const meetings = JSON.parse(r.stdout) as { id: string; tags: { id: number }[] }[];
    expect(meetings.map((m) => m.id)).toEqual(ids);
    for (const m of meetings) expect(m.tags.map((t) => t.id)).toContain(2);

    const csv = await mtg(['tags', 'apply', '2', ids[0]!, '--format', 'csv', '--fields', 'id,tags']);
    expect(parse(csv.stdout, { columns: true })).toEqual([{ id: ids[0], tags: expect.any(String) }]);
  });

  test('sends many meetings from --stdin in batches of 100; a failed batch is reported and the exit code is 6', async ({
    meetingIds,
    mtg,
  }) => {
    const ids = meetingIds.slice(0, 250);
    ids.splice(150, 0, 'mtg_does_not_exist'); // lands in the second batch
    const r = await mtg(['tags', 'apply', '3', '--stdin', '--json'], { input: `${ids.join('\n')}\n` });
    expect(r.code).toBe(6);
    const puts = r.requests.filter((q) => q.method === 'PUT');
    const bodies = puts.map((q) => q.body as { tagId: number; meetingIds: string[] });
    expect(bodies.map((b) => b.meetingIds.length).sort((a, b) => b - a)).toEqual([100, 100, 51]);
    expect(bodies.flatMap((b) => b.meetingIds).sort()).toEqual([...ids].sort());
    // stdout: in input order, the meetings of the batches that applied and one outcome per meeting
    // of the batch that failed (its id, the batch's error).
    const printed = JSON.parse(r.stdout) as { id: string; outcome?: string; error?: { status: number } }[];
    expect(printed.map((m) => m.id)).toEqual(ids);
    expect(printed.slice(100, 200).every((m) => m.outcome === 'failed' && m.error?.status === 404)).toBe(
      true,
    );
    expect(printed.filter((m) => m.outcome)).toHaveLength(100);
    expect(r.stderr).toMatch(
      /tag 3: 100 meetings not tagged \(batch 2 of 3: \S+ … \S+\): Meeting\(s\) not found: mtg_does_not_exist/,
    );
    expect(r.stderr).toContain('Tagged 151 of 251 meetings with tag 3; 1 of 3 batches failed');
  });

  test('an unknown tag fails every batch: exit 4', async ({ meetingIds, mtg }) => {
    const r = await mtg(['tags', 'apply', '99999', meetingIds[0]!]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/Tag 99999 not found/);
  });

  test.for<[string[], RegExp]>([
    [['3'], /no meeting IDs given/],
    [['x', 'm1'], /TAG_ID must be a positive whole number/],
    [['3', 'has space'], /meeting ID "has space" contains characters an ID cannot have/],
    [['3', 'm1', '--fields', 'nope'], /unknown field/],
  ])('rejects %j with exit 2 and sends nothing', async ([args, message], { mtg }) => {
    const r = await mtg(['tags', 'apply', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.requests).toEqual([]);
  });

  test('a JSON-quoted line on --stdin (jq without -r) is exit 2 with one line, as for every --stdin', async ({
    meetingIds,
    mtg,
  }) => {
    const input = meetingIds
      .slice(0, 2)
      .map((id) => JSON.stringify(id))
      .join('\n');
    const r = await mtg(['tags', 'apply', '7', '--stdin', '--dry-run'], { input: `${input}\n` });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.requests).toHaveLength(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^mtg: stdin line 1: .* is a JSON string, not an? .*: pipe bare values \(jq -r\) or NDJSON objects with an? "\w+"/,
    );
  });
});
