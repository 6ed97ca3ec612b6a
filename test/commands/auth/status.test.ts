// `mtg auth status` in-process against the sandbox: exit 3 for a missing, wrong or revoked key, and
// plain http refused to a host other than loopback.
import { describe, expect } from 'vitest';
import { sandboxEnv } from '../../helpers/cli.js';
import { sandboxTest } from '../../helpers/fixtures.js';
import { runInProcess } from '../../helpers/inprocess.js';

const test = sandboxTest({ pageSize: 7, limits: '1000/1s' });

describe('auth status', () => {
  test('exits 3 with no key, with a wrong key and with a revoked (403) key', async ({ sandbox }) => {
    const none = await runInProcess(['auth', 'status'], { env: { MTG_BASE_URL: sandbox.baseUrl } });
    expect(none.code).toBe(3);
    const wrong = await runInProcess(['auth', 'status'], {
      env: sandboxEnv({ ...sandbox, apiKey: 'mtg_sk_nope' }),
    });
    expect(wrong.code).toBe(3);
    const revoked = await runInProcess(['auth', 'status'], {
      env: sandboxEnv({ ...sandbox, apiKey: sandbox.revokedApiKey }),
    });
    expect(revoked.code).toBe(3);
  });

  test('refuses plain http to a host other than loopback unless --insecure (exit 2, nothing sent)', async () => {
    const r = await runInProcess(['auth', 'status', '--json'], {
      env: { MTG_BASE_URL: 'http://api.example.com', MTG_API_KEY: 'k' },
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toContain('--insecure');
    const login = await runInProcess(['auth', 'login', '--base-url', 'http://api.example.com'], {
      stdin: 'k\n',
    });
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('--insecure');
  });
});
