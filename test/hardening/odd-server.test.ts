// The contract against a server that is not the sandbox (issue 9): other page sizes, absolute and
// relative Link targets, Retry-After as an HTTP date, RateLimit-* on some responses only, error
// statuses with and without the API's envelope, and a proxy's HTML error page.
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/inprocess.js';
import { VirtualClock } from '../helpers/virtual-clock.js';
import { type Answer, type OddServer, oddEnv, person, startOddServer } from './odd-server.js';

let server: OddServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const page = (list: number[]) => JSON.stringify(list.map(person));

describe('a server that is not the sandbox', () => {
  it('follows absolute and relative next links over pages of uneven size, RateLimit-* on some only', async () => {
    server = await startOddServer((req): Answer => {
      const at = new URL(req.url ?? '/', 'http://x').searchParams.get('page');
      if (at === null)
        return {
          body: page(ids(1, 7)),
          headers: { link: `<${server!.baseUrl}/people?page=2>; rel="next"` },
        };
      if (at === '2')
        return {
          body: page(ids(8, 3)),
          // relative target, bare rel, and a rate-limit report on this page only
          headers: {
            link: '</people?page=3>; rel=next, </people>; rel="first"',
            'ratelimit-limit': '100',
            'ratelimit-remaining': '97',
            'ratelimit-reset': '1',
          },
        };
      if (at === '3') return { body: page([11]), headers: { link: '<people?page=4>; rel="next"' } };
      return { body: '[]' };
    });
    const r = await runInProcess(['people', 'list', '--format', 'ndjson'], { env: oddEnv(server) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const got = r.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: number }).id);
    expect(got).toEqual(ids(1, 11));
    expect(server.requests.map((q) => q.url)).toEqual([
      '/people',
      '/people?page=2',
      '/people?page=3',
      '/people?page=4',
    ]);
  });

  it('waits out a 429 whose Retry-After is an HTTP date, then succeeds', async () => {
    // The wait on a virtual clock (the date read against it): seconds of it in milliseconds.
    const clock = new VirtualClock(Date.now(), { realIo: true });
    const retryAt = new Date(clock.now() + 3000);
    server = await startOddServer((_req, n) =>
      n === 0
        ? {
            status: 429,
            headers: { 'retry-after': retryAt.toUTCString() },
            body: '{"code":"RATE_LIMITED","error":"Too many requests"}',
          }
        : { body: page([1]) },
    );
    const r = await clock.settle(
      runInProcess(['people', 'list', '--format', 'ndjson'], { env: oddEnv(server), clock }),
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(1);
    expect(server.requests).toHaveLength(2);
    // The resend waited for the date (whole seconds in an HTTP date: up to a second before retryAt).
    expect(clock.now()).toBeGreaterThanOrEqual(retryAt.getTime() - 1000);
  });

  it('a Retry-After beyond --max-wait is exit 5 at once, naming the wait', async () => {
    server = await startOddServer(() => ({
      status: 429,
      headers: { 'retry-after': '120' },
      body: '{"code":"RATE_LIMITED","error":"Rate limit exceeded for plan Pro"}',
    }));
    const r = await runInProcess(['people', 'list', '--format', 'ndjson', '--max-wait', '3'], {
      env: oddEnv(server),
    });
    expect(r.code).toBe(5);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/wait 12\d s more, beyond --max-wait 3 s/);
    expect(server.requests).toHaveLength(1);
  });

  it('a RateLimit-Reset sent as a Unix time is read as the spec says (seconds): beyond --max-wait, exit 5 at once', async () => {
    server = await startOddServer((req): Answer => {
      if (req.url === '/people')
        return {
          body: page([1]),
          headers: {
            link: '</people?page=2>; rel="next"',
            'ratelimit-limit': '10',
            'ratelimit-remaining': '0',
            'ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1),
          },
        };
      return { body: page([2]) };
    });
    const r = await runInProcess(['people', 'list', '--format', 'ndjson', '--max-wait', '30'], {
      env: oddEnv(server),
    });
    // Spec section 8: Reset is the seconds until the window refills, so no guess turns it into an
    // instant (issue #31); a wait of decades is refused at once, naming the limit, not slept.
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/--max-wait 30 s/);
    expect(server.requests).toHaveLength(1);
  });

  // status -> the contract's exit code
  const cases: [number, number][] = [
    [401, 3],
    [403, 3],
    [404, 4],
    [409, 1],
    [429, 5],
  ];
  for (const [status, exit] of cases) {
    for (const envelope of [true, false]) {
      it(`HTTP ${status} ${envelope ? 'with' : 'without'} the error envelope: exit ${exit}, one plain line`, async () => {
        server = await startOddServer(() =>
          envelope
            ? { status, body: JSON.stringify({ code: 'SOME_CODE', error: `server says ${status}` }) }
            : { status, headers: { 'content-type': 'text/plain' }, body: status === 404 ? '' : 'nope' },
        );
        // A 429 spends no retry (it is waited out): --max-wait is what ends it.
        const wait = status === 429 ? ['--max-wait', '1'] : [];
        const r = await runInProcess(
          ['people', 'list', '--format', 'ndjson', '--max-retries', '0', ...wait],
          {
            env: oddEnv(server),
          },
        );
        expect(r.code).toBe(exit);
        expect(r.stdout).toBe('');
        const lines = r.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^mtg: /);
        if (envelope) expect(lines[0]).toContain(`server says ${status}`);
        else {
          expect(lines[0]).toContain(`HTTP ${status}`);
          expect(lines[0]).not.toContain('nope');
        }
      });
    }
  }

  const html =
    '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><h1>Bad Gateway</h1><p>upstream</p></body></html>\n';

  it('a proxy HTML error page (502 text/html) is exit 1 and one plain line, no HTML', async () => {
    server = await startOddServer(() => ({
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: html,
    }));
    const r = await runInProcess(['people', 'list', '--format', 'ndjson', '--max-retries', '1'], {
      env: oddEnv(server),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^mtg: GET \/people failed with HTTP 502/);
    expect(r.stderr).not.toMatch(/<|html|Bad Gateway/i);
    expect(server.requests).toHaveLength(2);
  });

  it('an HTML page with status 200 (a captive portal) is exit 1 with a plain message, no HTML', async () => {
    server = await startOddServer(() => ({
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: html,
    }));
    const r = await runInProcess(['people', 'list', '--format', 'ndjson'], { env: oddEnv(server) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/<|Bad Gateway/i);
    expect(r.stderr).toMatch(/not JSON|not valid JSON/);
  });
});
