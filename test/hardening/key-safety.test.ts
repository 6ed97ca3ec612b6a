// The API key: never printed (not even with --verbose or in errors), stored 0600, sent only to the
// configured origin (not to a Link's or a redirect's other origin), never over plain http to a
// remote host without --insecure, and never put in a child process's arguments.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

const KEY = 'mtg_sk_test_S3cretS3cretS3cret0123';
const WRONG = 'mtg_sk_test_Wr0ngWr0ngWr0ng9876';
let sandbox: Sandbox;
let broken: Sandbox;
const servers: Server[] = [];

interface Hit {
  url: string;
  authorization: string | undefined;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, host = '127.0.0.1') {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    hits.push({ url: req.url ?? '', authorization: req.headers.authorization });
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { hits, origin: `http://${host}:${port}` };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  sandbox = await startSandbox({ limits: 'none', apiKeys: [KEY] });
  broken = await startSandbox({ limits: 'none', apiKeys: [KEY], faults: '500:1' });
});
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all([...servers.map((s) => new Promise((r) => s.close(r))), sandbox.close(), broken.close()]);
});

const env = (baseUrl: string, key = KEY) => ({ MTG_BASE_URL: baseUrl, MTG_API_KEY: key });

describe('the key is never printed', () => {
  async function closedPortUrl(): Promise<string> {
    const { origin } = await serve(() => undefined);
    const s = servers.pop()!;
    await new Promise((r) => s.close(r));
    return origin;
  }

  it.each([
    ['success, --verbose', ['action-items', 'list', '--json', '-v'], () => env(sandbox.baseUrl), 0],
    ['auth status', ['auth', 'status', '-v'], () => env(sandbox.baseUrl), 0],
    ['auth status --json', ['auth', 'status', '--json'], () => env(sandbox.baseUrl), 0],
    ['a wrong key, --verbose', ['action-items', 'list', '-v'], () => env(sandbox.baseUrl, WRONG), 3],
    [
      '--api-key flag and a 500',
      ['people', 'list', '-v', '--max-retries', '1', '--api-key', KEY],
      () => ({ MTG_BASE_URL: broken.baseUrl }),
      1,
    ],
    ['a 500, --verbose', ['people', 'list', '-v', '--max-retries', '1'], () => env(broken.baseUrl), 1],
  ] as [string, string[], () => Record<string, string>, number][])(
    '%s',
    async (_name, args, makeEnv, code) => {
      const r = await runInProcess(args, { env: makeEnv() });
      expect(r.code).toBe(code);
      for (const out of [r.stdout, r.stderr]) {
        expect(out).not.toContain(KEY);
        expect(out).not.toContain(WRONG);
        expect(out).not.toContain('S3cretS3cretS3cret'); // nor a long part of it
      }
      if (args.includes('-v')) expect(r.stderr).toMatch(/GET \/\S+ -> /); // verbose did log requests
    },
  );

  it('a network error to a closed port, --verbose', async () => {
    const r = await runInProcess(['people', 'list', '-v', '--max-retries', '1'], {
      env: env(await closedPortUrl()),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/connection refused/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('auth login stores the key in a 0600 file inside a 0700 folder', async () => {
    const dir = tempConfigDir();
    const r = await runInProcess(['auth', 'login', '--base-url', sandbox.baseUrl], {
      env: { MTG_CONFIG_DIR: dir },
      stdin: `${KEY}\n`,
    });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBe(1);
    const file = join(dir, files[0]!);
    expect(readFileSync(file, 'utf8')).toContain(KEY);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});

describe('the key goes only to the configured origin', () => {
  it('a Link rel="next" to another origin is not followed: the other server gets nothing', async () => {
    const other = await serve((_req, res) => json(res, 200, []));
    const first = await serve((_req, res) =>
      json(res, 200, [], { link: `<${other.origin}/people?cursor=abc>; rel="next"` }),
    );
    const r = await runInProcess(['people', 'list', '--format', 'ndjson'], { env: env(first.origin) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^mtg: Refusing to follow a link to http:\/\/127\.0\.0\.1:\d+/m);
    expect(first.hits.length).toBe(1);
    expect(first.hits[0]!.authorization).toBe(`Bearer ${KEY}`);
    expect(other.hits).toEqual([]);
  });

  it('the same host under another name (localhost vs 127.0.0.1) is another origin too', async () => {
    const first = await serve((req, res) => {
      const port = req.socket.localPort;
      json(res, 200, [], { link: `<http://localhost:${port}/people?cursor=abc>; rel="next"` });
    });
    const r = await runInProcess(['people', 'list', '--format', 'ndjson'], { env: env(first.origin) });
    expect(r.code).toBe(1);
    expect(first.hits.length).toBe(1);
  });

  it.each([301, 302, 307, 308])('a %i redirect is not followed', async (status) => {
    const other = await serve((_req, res) => json(res, 200, []));
    const first = await serve((_req, res) => {
      res.writeHead(status, { location: `${other.origin}/people` });
      res.end();
    });
    const r = await runInProcess(['people', 'list', '--format', 'ndjson'], { env: env(first.origin) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/redirects are not followed/);
    expect(first.hits.length).toBe(1); // not retried either
    expect(other.hits).toEqual([]);
  });

  it('mtg api with a protocol-relative PATH stays on the configured origin', async () => {
    const other = await serve((_req, res) => json(res, 200, []));
    const host = other.origin.replace('http:', '');
    const before = sandbox.requests.length;
    await runInProcess(['api', `${host}/people`], { env: env(sandbox.baseUrl) });
    expect(other.hits).toEqual([]);
    expect(sandbox.requests.length - before).toBe(1); // it went to the sandbox instead
  });
});

describe('plain http to a host other than loopback', () => {
  it('is refused without --insecure (exit 2, nothing sent)', async () => {
    const r = await runInProcess(['people', 'list'], { env: env('http://api.example.invalid') });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mtg: Refusing to send the API key over plain http .*--insecure/);
    expect(r.stderr.trim().split('\n').length).toBe(1);
  });

  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

  it.runIf(external)(
    'is attempted with --insecure (a server on a non-loopback address gets it)',
    async () => {
      const remote = await serve((_req, res) => json(res, 200, []), external);
      const refused = await runInProcess(['people', 'list'], { env: env(remote.origin) });
      expect(refused.code).toBe(2);
      expect(remote.hits).toEqual([]);
      const r = await runInProcess(['people', 'list', '--insecure', '--format', 'ndjson'], {
        env: env(remote.origin),
      });
      expect(r.code).toBe(0);
      expect(remote.hits.length).toBe(1);
    },
  );

  it('with --insecure an unreachable host is attempted (exit 1, host not found)', async () => {
    const r = await runInProcess(['people', 'list', '--insecure', '--max-retries', '0'], {
      env: env('http://api.example.invalid'),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/GET \/people failed: host not found/);
  });
});

describe('never in a child process argument list', () => {
  // Static: the CLI itself never starts a process (so it cannot leak the key into `ps`), and the
  // scripts that do pass the key through the environment, never as --api-key.
  const root = join(import.meta.dirname, '..', '..');
  function files(dir: string): string[] {
    return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(ts|mjs|js)$/.test(f))
      .map((f) => join(dir, f));
  }

  it("src/ does not import child_process, except `mtg watch --exec` (the user's own command, no key in its arguments), the credential store's helper (the key on its stdin) and `mtg sql`'s statement runner (the database's path only, and no key in its environment)", () => {
    const offenders = files('src').filter((f) => /child_process/.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders.sort()).toEqual([
      join('src', 'config', 'keychain.ts'),
      join('src', 'mirror', 'sql-runner.ts'),
      join('src', 'mirror', 'watch-hook.ts'),
    ]);
    expect(readFileSync(join(root, 'src', 'mirror', 'watch-hook.ts'), 'utf8')).not.toMatch(/api-?key/i);
    const runner = readFileSync(join(root, 'src', 'mirror', 'sql-runner.ts'), 'utf8');
    expect(runner).not.toMatch(/api-?key/i);
    // The runner's environment is built from nothing (only SQLite's temp folders), never process.env whole.
    expect(runner).toMatch(/env: childEnv\(\)/);
    const keychain = readFileSync(join(root, 'src', 'config', 'keychain.ts'), 'utf8');
    // The helper's arguments: the module, the operation, the service and the profile; the key is written to its stdin.
    expect(keychain).toMatch(/spawn\(process\.execPath, \['-e', HELPER, modulePath, op, SERVICE, profile\]/);
    expect(keychain).toMatch(/child\.stdin\.end\(input/);
  });

  it('scripts/ and bench/ never pass --api-key to a process', () => {
    const offenders = [...files('scripts'), ...files('bench')].filter((f) =>
      /['"`]--api-key/.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
