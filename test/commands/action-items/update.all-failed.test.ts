// A batch where every item failed writes no data (issue 20, item 6): no csv/tsv header; json and
// ndjson hold only each item's outcome (failed, with the error), json as one valid document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';

let dir: string;
let sandbox: Sandbox;
beforeAll(async () => {
  dir = tempDir('mtg-all-failed-');
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

// IDs the sandbox does not have: every update is a 404.
const update = (format: string) =>
  runInProcess(['action-items', 'update', '--stdin', '--status', 'done', '--format', format], {
    env: { ...sandboxEnv(sandbox), MTG_CONFIG_DIR: dir },
    stdin: '990001\n990002\n',
  });

describe('a batch where every item failed', () => {
  for (const format of ['csv', 'tsv']) {
    it(`prints nothing on stdout in ${format}`, async () => {
      const r = await update(format);
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('action item 990001');
      expect(r.stdout).toBe('');
    });
  }

  it('json and ndjson: only the outcome of each item', async () => {
    const failed = (id: number) => ({
      id,
      outcome: 'failed',
      error: { message: `Action item ${id} not found`, status: 404, code: 'NOT_FOUND' },
    });
    const json = await update('json');
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toEqual([failed(990001), failed(990002)]);
    const ndjson = await update('ndjson');
    expect(ndjson.code).toBe(4);
    expect(
      ndjson.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([failed(990001), failed(990002)]);
  });

  it('still prints the header when one item applied', async () => {
    const r = await runInProcess(
      ['action-items', 'update', '--stdin', '--status', 'done', '--format', 'tsv'],
      {
        env: { ...sandboxEnv(sandbox), MTG_CONFIG_DIR: dir },
        stdin: '990001\n1\n',
      },
    );
    expect(r.code).toBe(6);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^id\t/);
  });
});
