// One item with an extra field nested 20,000 deep made every `mtg sync` fail with "Maximum call
// stack size exceeded" (JSON.parse copes; storing and printing recurse). The depth is bounded where
// the body is parsed (src/api/depth.ts): that item is reported as not matching the spec and left
// out, the rest of the page syncs and prints.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/api/depth.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';
import { actionItem, type OddServer, oddEnv, startOddServer } from './odd-server.js';

let server: OddServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DEPTH = 20_000;
// Item 2's extra field: arrays in arrays, 20,000 deep (JSON.stringify cannot even write it).
const deepItem = JSON.stringify(actionItem(2)).replace(
  /}$/,
  `,"extra":${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)}}`,
);
const page = `[${JSON.stringify(actionItem(1))},${deepItem},${JSON.stringify(actionItem(3, { extra: { a: [{ b: 1 }] } }))}]`;

async function serve(): Promise<OddServer> {
  return startOddServer((req) => ({
    body: new URL(req.url ?? '/', 'http://x').pathname === '/action-items' ? page : '[]',
  }));
}

describe('an item nested 20,000 deep', () => {
  it('mtg sync: that item is reported and left out, the rest syncs, exit 0', async () => {
    server = await serve();
    const env = { ...oddEnv(server), MTG_DATA_DIR: tempDir('mtg-deep-') };
    const r = await runInProcess(['sync', '--only', 'action-items', '--no-transcripts'], { env });
    expect(r.stderr).not.toContain('call stack');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `warning: unexpected response from GET /action-items: item [1] of the page does not match the API spec (nested deeper than ${MAX_JSON_DEPTH} levels); it is left out`,
    );
    const rows = await runInProcess(
      ['sql', 'SELECT id FROM action_items ORDER BY id', '--format', 'ndjson'],
      { env },
    );
    expect(rows.code, rows.stderr).toBe(0);
    expect(
      rows.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(['1', '3']);
  });

  it('action-items list --json: the other items are printed exactly, one warning', async () => {
    server = await serve();
    const r = await runInProcess(['action-items', 'list', '--assignee', 'anyone', '--json'], {
      env: oddEnv(server),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([actionItem(1), actionItem(3, { extra: { a: [{ b: 1 }] } })]);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a single object nested too deep is one line, exit 1', async () => {
    server = await startOddServer(() => ({ body: deepItem }));
    const r = await runInProcess(['api', '/action-items/2'], { env: oddEnv(server) });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('call stack');
    expect(r.stderr).toContain('does not match the API spec');
    expect(r.stderr).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  });
});
