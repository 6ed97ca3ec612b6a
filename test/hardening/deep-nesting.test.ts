// One item with an extra field nested 20,000 deep made every `mtg sync` fail with "Maximum call
// stack size exceeded" (JSON.parse copes; storing and printing recurse). The depth is bounded where
// the body is parsed (src/api/depth.ts): what nests past the bound is cut and marked, the item that
// holds it kept (an extra field passes through), with one warning naming the item and the field.
// The item was once left out instead: a sync then took the walk for complete without it and marked
// a meeting the server still lists deleted (QA F8). A field of the spec nested too deep is a
// breaking difference: the command fails and the sync deletes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, TOO_DEEP_MARK } from '../../src/api/depth.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';
import { actionItem, meeting, type OddServer, oddEnv, startOddServer } from './odd-server.js';

let server: OddServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** `{"a":{"a":…1…}}`, `depth` objects deep. */
const nested = (depth: number, key = 'a') => `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`;
/** An item's JSON with one more field, its value given as raw text. */
const withRaw = (item: Record<string, unknown>, field: string, raw: string) =>
  JSON.stringify(item).replace(/}$/, `,${JSON.stringify(field)}:${raw}}`);

/** What a value nested `depth` deep at level 3 (page, item, field) is once cut: the levels within the bound, then the mark. */
const cutNested = (depth: number) => {
  const kept = MAX_JSON_DEPTH - 2;
  expect(depth).toBeGreaterThan(kept);
  let v: unknown = TOO_DEEP_MARK;
  for (let i = 0; i < kept; i++) v = { a: v };
  return v;
};

const DEPTH = 20_000;
// Item 2's extra field: arrays in arrays, 20,000 deep (JSON.stringify cannot even write it).
const deepItem = withRaw(actionItem(2), 'extra', `${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)}`);
const page = `[${JSON.stringify(actionItem(1))},${deepItem},${JSON.stringify(actionItem(3, { extra: { a: [{ b: 1 }] } }))}]`;

async function serve(): Promise<OddServer> {
  return startOddServer((req) => ({
    body: new URL(req.url ?? '/', 'http://x').pathname === '/action-items' ? page : '[]',
  }));
}

const ids = (ndjson: string) =>
  ndjson
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { id: string }).id);

describe('an item nested 20,000 deep', () => {
  it('mtg sync: every item syncs, the deep one with its extra field cut, one warning, exit 0', async () => {
    server = await serve();
    const env = { ...oddEnv(server), MTG_DATA_DIR: tempDir('mtg-deep-') };
    const r = await runInProcess(['sync', '--only', 'action-items', '--no-transcripts'], { env });
    expect(r.stderr).not.toContain('call stack');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `warning: unexpected response from GET /action-items: item [1]'s field "extra" nests deeper than ${MAX_JSON_DEPTH} levels`,
    );
    const rows = await runInProcess(
      ['sql', 'SELECT id FROM action_items ORDER BY id', '--format', 'ndjson'],
      { env },
    );
    expect(rows.code, rows.stderr).toBe(0);
    expect(ids(rows.stdout)).toEqual(['1', '2', '3']);
  });

  it('action-items list --json: every item, the others exactly, the deep field cut and marked, one warning', async () => {
    server = await serve();
    const r = await runInProcess(['action-items', 'list', '--assignee', 'anyone', '--json'], {
      env: oddEnv(server),
    });
    expect(r.code, r.stderr).toBe(0);
    const items = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(items).toHaveLength(3);
    expect(items[0]).toEqual(actionItem(1));
    expect(items[2]).toEqual(actionItem(3, { extra: { a: [{ b: 1 }] } }));
    const { extra, ...known } = items[1]!;
    expect(known).toEqual(actionItem(2));
    let v = extra;
    let levels = 0;
    while (Array.isArray(v)) {
      v = v[0];
      levels++;
    }
    // The page and the item are two levels: the field keeps the rest, then the mark.
    expect([levels, v]).toEqual([MAX_JSON_DEPTH - 2, TOO_DEEP_MARK]);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a single object nested too deep: its extra field cut, one warning, exit 0', async () => {
    server = await startOddServer(() => ({ body: deepItem }));
    const r = await runInProcess(['api', '/action-items/2'], { env: oddEnv(server) });
    expect(r.stderr).not.toContain('call stack');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject(actionItem(2));
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(
        `the body's field "extra" nests deeper than ${MAX_JSON_DEPTH} levels; what lies deeper is cut`,
      ),
    ]);
  });
});

// QA F8: 2 meetings; the second answer gives g2 an extra field nested 300 deep.
describe('a meeting whose extra field nests too deep, in the second sync', () => {
  const plain = [meeting('g1'), meeting('g2')].map((m) => JSON.stringify(m));

  async function serveMeetings(second: string): Promise<OddServer> {
    return startOddServer((req, n) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path !== '/meetings') return { body: '[]' };
      return { body: `[${plain[0]},${n === 0 ? plain[1] : second}]` };
    });
  }

  async function syncTwice(second: string) {
    server = await serveMeetings(second);
    const env = { ...oddEnv(server), MTG_DATA_DIR: tempDir('mtg-deep-') };
    const sync = ['sync', '--only', 'meetings', '--no-transcripts'];
    const first = await runInProcess(sync, { env });
    expect(first.code, first.stderr).toBe(0);
    return { env, again: await runInProcess(sync, { env }) };
  }

  it('an extra field: the meeting is kept, not deleted; meetings list --json gives both, the field cut', async () => {
    const deep = withRaw(meeting('g2'), 'extraDeep', nested(300));
    const { env, again } = await syncTwice(deep);
    expect(again.code, again.stderr).toBe(0);
    const changes = await runInProcess(['changes', '--json'], { env });
    expect(changes.code, changes.stderr).toBe(0);
    expect(changes.stdout).not.toContain('"deleted"');
    expect(again.stdout).not.toMatch(/-1\b/);
    expect(again.stderr).toContain(`item [1]'s field "extraDeep" nests deeper than ${MAX_JSON_DEPTH} levels`);
    const live = await runInProcess(
      ['sql', 'SELECT id FROM meetings WHERE deleted_at IS NULL ORDER BY id', '--format', 'ndjson'],
      { env },
    );
    expect(ids(live.stdout)).toEqual(['g1', 'g2']);

    const list = await runInProcess(['meetings', 'list', '--json'], { env: oddEnv(server!) });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([meeting('g1'), { ...meeting('g2'), extraDeep: cutNested(300) }]);
  });

  it('a field of the spec nested too deep: the sync fails (exit 1) and deletes nothing', async () => {
    const deep = withRaw(meeting('g2'), 'tags', `[${nested(300, 'name')}]`);
    const { env, again } = await syncTwice(deep);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('does not match the API spec');
    const live = await runInProcess(
      ['sql', 'SELECT id FROM meetings WHERE deleted_at IS NULL ORDER BY id', '--format', 'ndjson'],
      { env },
    );
    expect(ids(live.stdout)).toEqual(['g1', 'g2']);
    const changes = await runInProcess(['changes', '--json'], { env });
    expect(changes.stdout).not.toContain('"deleted"');
  });
});
