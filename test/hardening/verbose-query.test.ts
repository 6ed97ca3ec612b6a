// -v shows each request's path and query, so a user can see which filters were sent (issue 20,
// item 6); the key is a header and never shown, and a query parameter named like a secret is masked.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redactedSearch } from '../../src/api/client.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

let dir: string;
let sandbox: Sandbox | undefined;
beforeEach(() => {
  dir = tempDir('mtg-verbose-');
});
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('-v', () => {
  it('shows the path with its query and never the key', async () => {
    sandbox = await startSandbox({ port: 0 });
    const r = await runInProcess(
      [
        'action-items',
        'list',
        '--assignee',
        'anyone',
        '--status',
        'all',
        '--limit',
        '1',
        '--format',
        'ndjson',
        '-v',
      ],
      { env: { ...sandboxEnv(sandbox), MTG_CONFIG_DIR: dir } },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^GET \/action-items\?\S*assigneeType=Anyone\S* -> 200 /m);
    expect(r.stderr).toMatch(/^GET \/action-items\?\S*status=ALL\S* -> 200 /m);
    expect(r.stderr).not.toContain(sandbox.apiKey);
  });

  it('masks a query parameter named like a key or token', () => {
    const url = new URL('http://h/x?api_key=s3cret&status=ALL&access_token=t0k&ids=1,2');
    const shown = redactedSearch(url);
    expect(shown).toBe('?api_key=***&status=ALL&access_token=***&ids=1,2');
    expect(redactedSearch(new URL('http://h/x'))).toBe('');
  });
});
