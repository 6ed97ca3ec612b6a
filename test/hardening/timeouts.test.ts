// A server that stops answering mid-response is abandoned after --timeout and the request retried.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
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
    const ref = await runInProcess([...EXPORT_ARGS, '--format', 'ndjson'], { env: sandboxEnv(clean) });
    const r = await runInProcess(
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
    // Each stalled request was abandoned and sent again (every page arrived once); that it was
    // --timeout's 0.5 s and not the default 30 s that fired, the test's own time limit guards.
  });

  it('a server that always stalls its body ends with exit 1 and says the answer did not arrive in full in time', async () => {
    const dead = await startSandbox({ limits: 'none', faults: 'stall:1' });
    try {
      const r = await runInProcess(
        [...EXPORT_ARGS, '--format', 'ndjson', '--timeout', '0.3', '--max-retries', '1'],
        {
          env: sandboxEnv(dead),
        },
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^mtg: GET \/action-items failed: the answer did not arrive in full within 0\.3 s \(--timeout\) \(after 2 tries\)\n$/,
      );
      expect(dead.requests.length).toBe(2);
    } finally {
      await dead.close();
    }
  });
});

/** A server whose first answer stalls mid-body and whose later answers are fine. */
async function stallOnce(body: unknown) {
  const hits: string[] = [];
  const server = createServer((req, res: ServerResponse) => {
    hits.push(req.method ?? '');
    req.resume();
    const json = JSON.stringify(body);
    if (hits.length === 1) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(json.length + 100) });
      res.write(json.slice(0, 5)); // and then nothing more
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(json);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  };
  return { hits, url, close };
}

describe('--timeout on writes', () => {
  const env = (url: string) => ({ MTG_BASE_URL: url, MTG_API_KEY: 'mtg_sk_test_x' });

  it('a stalled PUT is retried (it is idempotent) and succeeds', async () => {
    const s = await stallOnce({ id: 1, title: 'x', description: '', status: 'PENDING', meetingIds: [] });
    try {
      const r = await runInProcess(
        ['action-items', 'update', '1', '--title', 'x', '--timeout', '0.3', '--json'],
        {
          env: env(s.url),
        },
      );
      expect(r.code).toBe(0);
      expect(s.hits).toEqual(['PUT', 'PUT']);
    } finally {
      await s.close();
    }
  });

  it('a stalled POST is not sent again (it may have been applied): exit 1 after one try', async () => {
    const s = await stallOnce({ id: 9, name: 't', description: null });
    try {
      const r = await runInProcess(['tags', 'create', 'T', '--timeout', '0.3'], { env: env(s.url) });
      expect(r.code).toBe(1);
      // Its 200 came before the body stalled: the tag may exist now.
      expect(r.stderr).toMatch(
        /POST \/tag failed: the server answered HTTP 200 but its body did not arrive within 0\.3 s \(--timeout\); the write may have been applied/,
      );
      expect(s.hits).toEqual(['POST']);
    } finally {
      await s.close();
    }
  });
});
