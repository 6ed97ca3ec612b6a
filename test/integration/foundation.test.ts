// The foundation end to end: the sandbox over real HTTP, the client's paging and pacing, and the
// CLI's auth, config and exit codes.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { paginate } from '../../src/api/paginate.js';
import { ActionItem } from '../../src/api/schemas.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { BIN, runCli, sandboxEnv, tempConfigDir } from '../helpers/cli.js';

let sandbox: Sandbox;
const opened: ApiClient[] = [];

function clientFor(
  sb: { baseUrl: string; apiKey: string },
  over: Partial<ConstructorParameters<typeof ApiClient>[0]> = {},
) {
  const c = new ApiClient({
    baseUrl: new URL(sb.baseUrl),
    apiKey: sb.apiKey,
    userAgent: 'mtg-test',
    timeoutMs: 5000,
    maxRetries: 5,
    maxWaitMs: 30_000,
    ...over,
  });
  opened.push(c);
  return c;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, pageSize: 7, limits: '1000/1s' });
});

afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await sandbox.close();
});

describe('mtg sandbox', () => {
  it('prints its one JSON line, serves the API, and stops on SIGINT', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--json', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('\n')) resolve(out);
      });
      child.on('error', reject);
      setTimeout(() => reject(new Error(`no line in time: ${out}`)), 10_000);
    });
    const info = JSON.parse(line) as { baseUrl: string; apiKey: string; plan: string };
    expect(Object.keys(info)).toEqual(['baseUrl', 'apiKey', 'plan']);
    expect(info.plan).toBe('Pro');
    const res = await fetch(`${info.baseUrl}/people?limit=1`, {
      headers: { authorization: `Bearer ${info.apiKey}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).not.toBeNull();
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('refuses a host that is not loopback (exit 2)', async () => {
    const r = await runCli(['sandbox', '--host', '0.0.0.0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('loopback');
  });
});

describe('paging over real HTTP', () => {
  it('returns every action item across many pages exactly once', async () => {
    const before = sandbox.requests.length;
    const ids: number[] = [];
    for await (const item of paginate(clientFor(sandbox), {
      path: '/action-items',
      query: { assigneeType: 'Anyone', status: 'ALL' },
      item: ActionItem,
    })) {
      ids.push(item.id);
    }
    const pages = sandbox.requests.length - before;
    expect(pages).toBeGreaterThan(5);
    expect(ids.length).toBeGreaterThan(7 * 5);
    expect(new Set(ids).size).toBe(ids.length);
    // The next page's query carries the same filters and an untouched cursor.
    const second = sandbox.requests[before + 1]!;
    expect(second.query.get('assigneeType')).toBe('Anyone');
    expect(second.query.get('cursor')).toBeTruthy();
  });

  it('rejects a cursor reused with other filters, with the issue naming the cursor', async () => {
    const client = clientFor(sandbox);
    const first = await client.request({
      method: 'GET',
      path: '/action-items',
      query: { assigneeType: 'Anyone' },
    });
    const next = new URL(String(first.headers.link).match(/<([^>]+)>/)![1]!, sandbox.baseUrl);
    const cursor = next.searchParams.get('cursor')!;
    const err = await client
      .request({
        method: 'GET',
        path: '/action-items',
        query: { assigneeType: 'Anyone', status: 'DONE', cursor },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).details.some((d) => d.startsWith('cursor'))).toBe(true);
  });
});

describe('rate limits', () => {
  it('paces a paged export under tight windows without a single 429', async () => {
    const sb = await startSandbox({ port: 0, pageSize: 5, limits: '4/1s' });
    try {
      let count = 0;
      for await (const _ of paginate(clientFor(sb), {
        path: '/action-items',
        query: { assigneeType: 'Anyone', status: 'ALL' },
        item: ActionItem,
        limit: 45,
      })) {
        count++;
      }
      expect(count).toBe(45);
      expect(sb.count429).toBe(0);
    } finally {
      await sb.close();
    }
  });

  it('meets a 429 caused by another client of the account, waits Retry-After, and succeeds', async () => {
    const sb = await startSandbox({ port: 0, limits: '2/1s' });
    try {
      // Another client of the same account uses up the window behind our back.
      for (let i = 0; i < 2; i++)
        await fetch(`${sb.baseUrl}/people?limit=1`, { headers: { authorization: `Bearer ${sb.apiKey}` } });
      const waits: string[] = [];
      const res = await clientFor(sb, { onWait: (w) => waits.push(w.reason) }).request({
        method: 'GET',
        path: '/people',
      });
      expect(res.status).toBe(200);
      expect(sb.count429).toBe(1);
      expect(waits).toContain('retry-after');
    } finally {
      await sb.close();
    }
  });
});

describe('--max-wait', () => {
  it('gives up with exit 5 once waiting would pass it, saying how far the export got', async () => {
    const sb = await startSandbox({ port: 0, pageSize: 5, limits: '2/30s' });
    try {
      const r = await runCli(
        ['action-items', 'list', '--assignee', 'anyone', '--format', 'ndjson', '--max-wait', '1'],
        {
          env: sandboxEnv(sb),
        },
      );
      expect(r.code).toBe(5);
      expect(r.stdout.trim().split('\n')).toHaveLength(10);
      expect(r.stderr).toContain('--max-wait 1 s');
      expect(r.stderr).toContain('Stopped after 10 action items');
      expect(sb.count429).toBe(0);
    } finally {
      await sb.close();
    }
  });
});

describe('auth and config', () => {
  it('auth login verifies the key with one request and, with no credential store (no session bus), stores it with mode 0600 in a 0700 folder and says so', async () => {
    const dir = join(tempConfigDir(), 'nested');
    const before = sandbox.requests.length;
    const r = await runCli(['auth', 'login', '--base-url', sandbox.baseUrl], {
      env: { MTG_CONFIG_DIR: dir },
      input: `${sandbox.apiKey}\n`,
    });
    expect(r.code).toBe(0);
    expect(sandbox.requests.length - before).toBe(1);
    const file = join(dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default['api-key']).toBe(sandbox.apiKey);
    expect(r.stdout + r.stderr).not.toContain(sandbox.apiKey);
    expect(r.stderr).toMatch(/^mtg: No credential store here \(no D-Bus session bus/m);
    expect(r.stderr).toContain(`the key is stored in the config file ${file}`);

    const status = await runCli(['auth', 'status', '--json'], { env: { MTG_CONFIG_DIR: dir } });
    expect(status.code).toBe(0);
    const info = JSON.parse(status.stdout);
    expect(info).toMatchObject({ profile: 'default', keySource: 'config file', verified: true });
    expect(info.key).not.toContain(sandbox.apiKey.slice(8, -4));
    expect(info.rateLimit.limit).toBeGreaterThan(0);

    const listed = await runCli(['config', 'list', '--json'], { env: { MTG_CONFIG_DIR: dir } });
    expect(JSON.parse(listed.stdout)).toContainEqual({
      profile: 'default',
      key: 'base-url',
      value: sandbox.baseUrl,
    });
    expect(listed.stdout).not.toContain(sandbox.apiKey);
  });

  it('auth login with a wrong key exits 3 and stores nothing', async () => {
    const dir = tempConfigDir();
    const r = await runCli(['auth', 'login', '--base-url', sandbox.baseUrl, '--profile', 'work'], {
      env: { MTG_CONFIG_DIR: dir },
      input: 'mtg_sk_wrong\n',
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^mtg: /);
    const file = join(dir, 'config.json');
    if (existsSync(file)) expect(JSON.parse(readFileSync(file, 'utf8')).profiles.work).toBeUndefined();
  });

  it('exits 3 with no key, with a wrong key and with a revoked (403) key', async () => {
    const none = await runCli(['auth', 'status'], { env: { MTG_BASE_URL: sandbox.baseUrl } });
    expect(none.code).toBe(3);
    const wrong = await runCli(['auth', 'status'], {
      env: sandboxEnv({ ...sandbox, apiKey: 'mtg_sk_nope' }),
    });
    expect(wrong.code).toBe(3);
    const revoked = await runCli(['auth', 'status'], {
      env: sandboxEnv({ ...sandbox, apiKey: sandbox.revokedApiKey }),
    });
    expect(revoked.code).toBe(3);
  });

  it('profiles are separate and MTG_PROFILE / --profile choose one; env overrides config', async () => {
    const dir = tempConfigDir();
    const env = { MTG_CONFIG_DIR: dir };
    expect(
      (await runCli(['config', 'set', 'base-url', 'https://work.example.com', '--profile', 'work'], { env }))
        .code,
    ).toBe(0);
    expect((await runCli(['config', 'set', 'base-url', 'https://home.example.com'], { env })).code).toBe(0);
    expect((await runCli(['config', 'get', 'base-url'], { env })).stdout.trim()).toBe(
      'https://home.example.com',
    );
    expect(
      (await runCli(['config', 'get', 'base-url'], { env: { ...env, MTG_PROFILE: 'work' } })).stdout.trim(),
    ).toBe('https://work.example.com');
    const status = await runCli(['auth', 'status', '--json', '--profile', 'work'], {
      env: { ...env, MTG_BASE_URL: 'https://env.example.com' },
    });
    expect(JSON.parse(status.stdout)).toMatchObject({
      profile: 'work',
      baseUrl: 'https://env.example.com',
      baseUrlSource: 'env',
    });
    const unset = await runCli(['config', 'unset', 'base-url', '--profile', 'work'], { env });
    expect(unset.code).toBe(0);
    expect((await runCli(['config', 'get', 'base-url', '--profile', 'work'], { env })).code).toBe(1);
    expect((await runCli(['config', 'set', 'colour', 'x'], { env })).code).toBe(2);
  });

  it('says how to set a base URL when there is none, and mentions the sandbox (exit 2)', async () => {
    const r = await runCli(['auth', 'login'], { input: 'k\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('mtg sandbox');
  });

  it('refuses plain http to a host other than loopback unless --insecure (exit 2, nothing sent)', async () => {
    const r = await runCli(['auth', 'status', '--json'], {
      env: { MTG_BASE_URL: 'http://api.example.com', MTG_API_KEY: 'k' },
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toContain('--insecure');
    const login = await runCli(['auth', 'login', '--base-url', 'http://api.example.com'], { input: 'k\n' });
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('--insecure');
  });
});
