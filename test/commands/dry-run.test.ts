// --dry-run on every command that writes: it prints the requests, sends nothing and needs no key.
import { describe, expect } from 'vitest';
import { sandboxTest } from '../helpers/fixtures.js';
import { runInProcess } from '../helpers/inprocess.js';
import { fetchAll } from '../helpers/recorded.js';

// About a year of meetings (they are 2 to 40 hours apart), in pages of 10.
const test = sandboxTest({ pageSize: 10, limits: 'none', sizes: { meetings: 420, actionItems: 200 } });

describe('--dry-run', () => {
  /** No key and no base URL anywhere: a dry run needs neither. */
  const bare = (args: string[], input?: string) =>
    runInProcess(args, { env: { MTG_API_KEY: undefined }, stdin: input });

  test.for<[string[], string]>([
    [
      ['action-items', 'create', 'Write it', '--assignee', '12'],
      'POST /action-items {"title":"Write it","assigneeProfileId":12}\n',
    ],
    [
      ['action-items', 'update', '4', '5', '--status', 'done'],
      'PUT /action-item/4 {"status":"DONE"}\nPUT /action-item/5 {"status":"DONE"}\n',
    ],
    [['tags', 'create', 'Hiring', '--description', 'x'], 'POST /tag {"name":"Hiring","description":"x"}\n'],
    [['tags', 'update', '7', '--name', 'New'], 'PUT /tag/7 {"name":"New"}\n'],
    [['tags', 'apply', '7', 'm1', 'm2'], 'PUT /tag {"tagId":7,"meetingIds":["m1","m2"]}\n'],
    [
      ['meetings', 'share', 'm1', '--team', '3', '--access', 'editor'],
      'PUT /meeting/m1/share [{"teamId":3,"access":"Editor"}]\n',
    ],
    [
      ['calendar', 'set-notes', 'ev:1', '--notes', 'hi', '--clear-tags'],
      'PUT /calendar/events/ev%3A1/meeting {"privateNotes":"hi","tagIds":[]}\n',
    ],
    [['api', '/tag/7', '-X', 'PUT', '-F', 'name=x'], 'PUT /tag/7 {"name":"x"}\n'],
    [['api', '/action-items?x=1', '-X', 'DELETE'], 'DELETE /action-items?x=1\n'],
  ])('%j prints the request, sends nothing, needs no key', async ([args, expected], { mtg }) => {
    const r = await mtg([...args, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(expected);
    expect(r.requests).toHaveLength(0);
    const withoutKey = await bare([...args, '--dry-run']);
    expect(withoutKey.code, withoutKey.stderr).toBe(0);
    expect(withoutKey.stdout).toBe(expected);
  });

  test('still validates the input fully (exit 2)', async () => {
    const r = await bare(['action-items', 'update', '4', '--status', 'maybe', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  test('bulk: every request of every batch; --json prints them as an array', async ({ mtg }) => {
    const emails = Array.from({ length: 120 }, (_, i) => `p${i}@example.com`).join('\n');
    const r = await mtg(['meetings', 'share', 'm1', '--stdin', '--dry-run', '--json'], { input: emails });
    expect(r.code).toBe(0);
    expect(r.requests).toHaveLength(0);
    const planned = JSON.parse(r.stdout) as { method: string; path: string; body: { email: string }[] }[];
    expect(planned.map((p) => [p.method, p.path, p.body.length])).toEqual([
      ['PUT', '/meeting/m1/share', 50],
      ['PUT', '/meeting/m1/share', 50],
      ['PUT', '/meeting/m1/share', 20],
    ]);
    expect(planned[2]!.body[19]).toEqual({ email: 'p119@example.com', access: 'Viewer' });
  });

  test('prints exactly what the real run sends', async ({ sandbox, mtg }) => {
    const ids = (await fetchAll(sandbox, '/action-items?assigneeType=Anyone&status=ALL')).slice(0, 3) as {
      id: number;
    }[];
    const args = [
      'action-items',
      'update',
      ...ids.map((i) => String(i.id)),
      '--title',
      'Renamed',
      '--assignee',
      'none',
    ];
    const dry = await mtg([...args, '--dry-run', '--json']);
    expect(dry.requests).toHaveLength(0);
    const real = await mtg(args);
    expect(real.code, real.stderr).toBe(0);
    const sent = real.requests.map((q) => ({ method: q.method, path: q.path, body: q.body }));
    const sortByPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect(sent.sort(sortByPath)).toEqual((JSON.parse(dry.stdout) as typeof sent).sort(sortByPath));
  });
});
