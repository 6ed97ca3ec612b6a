// A server that stops answering mid-response is abandoned after --timeout and the request retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { runCli, sandboxEnv } from '../helpers/cli.js';
import { EXPORT_ARGS, ndjsonIds, sameIdsOnce } from './helpers.js';

const SIZES = { actionItems: 600 };
let clean: Sandbox;
let stalling: Sandbox;

beforeAll(async () => {
  clean = await startSandbox({ pageSize: 50, limits: 'none', sizes: SIZES });
  stalling = await startSandbox({ pageSize: 50, limits: 'none', sizes: SIZES, faults: 'stall:0.2' });
});
afterAll(async () => {
  await Promise.all([clean.close(), stalling.close()]);
});

describe('--timeout', () => {
  it('abandons a stalled response after --timeout and retries: every item arrives', async () => {
    const ref = await runCli([...EXPORT_ARGS, '--format', 'ndjson'], { env: sandboxEnv(clean) });
    const started = Date.now();
    const r = await runCli(
      [...EXPORT_ARGS, '--format', 'ndjson', '--timeout', '0.5', '--max-retries', '10'],
      {
        env: sandboxEnv(stalling),
      },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(sameIdsOnce(ndjsonIds(r.stdout), ndjsonIds(ref.stdout))).toBe(true);
    const stalls = stalling.requests.length - 12; // 12 pages of 50
    expect(stalls).toBeGreaterThan(0);
    // Each stall costs about the timeout (plus backoff), not the default 30 s. undici checks body
    // timeouts on a ~1 s tick, so a 0.5 s timeout fires after 0.5-1.5 s: hence 2 s per stall.
    expect(Date.now() - started).toBeLessThan(stalls * 2_000 + 3_000);
  });

  it('a server that always stalls ends with exit 1 and says it gave no answer within the timeout', async () => {
    const dead = await startSandbox({ limits: 'none', faults: 'stall:1' });
    try {
      const r = await runCli(
        [...EXPORT_ARGS, '--format', 'ndjson', '--timeout', '0.3', '--max-retries', '1'],
        {
          env: sandboxEnv(dead),
        },
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^mtg: GET \/action-items failed: no answer within 0\.3 s \(--timeout\) \(after 2 tries\)\n$/,
      );
      expect(dead.requests.length).toBe(2);
    } finally {
      await dead.close();
    }
  });
});
