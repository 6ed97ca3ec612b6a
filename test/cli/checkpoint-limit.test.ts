// -o FILE --checkpoint with --limit: the page that reaches the limit completes the export, so its
// checkpoint names no next page. A process that dies after FILE is in place but before the
// checkpoint is removed then leaves a run that finishes, not one that stops at exit 2 ("the partial
// file is missing"). The removal is what such a death skips: here it is made to do nothing.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

vi.mock('../../src/cli/checkpoint.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/cli/checkpoint.js')>()),
  removeCheckpoint: async () => undefined,
}));

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, pageSize: 5 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('-o FILE --checkpoint --limit, killed between the rename and the checkpoint removal', () => {
  it('the next run says the export finished, and FILE keeps every row', async () => {
    const dir = tempDir('mtg-checkpoint-limit-');
    const file = join(dir, 'people.csv');
    const checkpoint = join(dir, 'people.checkpoint');
    const args = [
      'people',
      'list',
      '--format',
      'csv',
      '--limit',
      '7',
      '-o',
      file,
      '--checkpoint',
      checkpoint,
    ];
    const env = { ...sandboxEnv(sandbox), MTG_CONFIG_DIR: dir, MTG_DATA_DIR: dir };
    const first = await runInProcess(args, { env });
    expect(first.code).toBe(0);
    const rows = readFileSync(file, 'utf8');
    expect(rows.trim().split('\n')).toHaveLength(8); // the header and 7 people
    expect(existsSync(checkpoint)).toBe(true); // as a death before its removal leaves it
    const again = await runInProcess(args, { env });
    expect(again.stderr).toContain('says this export already finished');
    expect(again.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(rows);
  });
});
