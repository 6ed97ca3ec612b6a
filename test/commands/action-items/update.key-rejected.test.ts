// A batch whose key the server rejects (401): every request after the first would be refused the same
// way, so the rest are not sent (on the Free plan a batch of 40 would wait two minutes to be refused
// 40 times); each says so in json/ndjson, to be fed back once the key is mended, and the exit is 3.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';

let dir: string;
let sandbox: Sandbox;
beforeAll(async () => {
  dir = tempDir('mtg-key-rejected-');
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('a batch whose key is rejected', () => {
  it('stops at the first 401: the rest are not sent (key-rejected), exit 3', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => i + 1);
    const r = await runInProcess(
      ['action-items', 'update', '--stdin', '--status', 'done', '--format', 'ndjson'],
      {
        env: {
          ...sandboxEnv(sandbox),
          MTG_API_KEY: 'mtg_sk_revoked',
          MTG_CONFIG_DIR: dir,
          MTG_DATA_DIR: dir,
        },
        stdin: `${ids.join('\n')}\n`,
      },
    );
    expect(r.code).toBe(3);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(ids); // every item accounted for, in input order
    const failed = lines.filter((l) => l.outcome === 'failed');
    const notSent = lines.filter((l) => l.outcome === 'not-sent');
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.length).toBeLessThanOrEqual(8); // those already in flight
    expect(failed.every((l) => l.error.status === 401)).toBe(true);
    expect(notSent).toHaveLength(40 - failed.length);
    expect(notSent.every((l) => l.reason === 'key-rejected')).toBe(true);
    expect(r.stderr).toContain(
      `Updated 0 of 40 action items; ${failed.length} failed; ${notSent.length} not sent`,
    );
    expect(r.stderr).toContain('The API key was rejected, so the rest were not sent');
    expect(r.stderr).toContain(
      'feed the entries with "outcome" (refused 401/403, or not sent) back to --stdin',
    );
  });

  it('at a terminal, the IDs to send again are those refused and those not sent', async () => {
    const r = await runInProcess(['action-items', 'update', '--stdin', '--status', 'done'], {
      env: { ...sandboxEnv(sandbox), MTG_API_KEY: 'mtg_sk_revoked', MTG_CONFIG_DIR: dir, MTG_DATA_DIR: dir },
      stdin: `${Array.from({ length: 12 }, (_, i) => i + 1).join('\n')}\n`,
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'pass these IDs again (--stdin reads them): 1 2 3 4 5 6 7 8 9 10 11 12; once the key is mended',
    );
  });
});
