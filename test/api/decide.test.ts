// decide() (src/api/decide.ts) as a table: each outcome of one attempt, for each method and number
// of tries already spent, gives one next step: return, retry after a backoff, wait out a 429, or
// fail with the error people read. No server, no clock: the outcomes are built here.
import { describe, expect, it } from 'vitest';
import {
  type Decision,
  decide,
  MAX_REFUSALS,
  type Outcome,
  type RequestFacts,
  type Tries,
} from '../../src/api/decide.js';
import {
  ApiError,
  NetworkError,
  RateLimitExhaustedError,
  ResponseTooLargeError,
  type TransportFailure,
  WRITE_MAY_HAVE_BEEN_APPLIED,
} from '../../src/api/errors.js';
import { ProxyError } from '../../src/api/proxy.js';
import { ExitCode } from '../../src/shared/errors.js';

const MAX_RETRIES = 2;
const url = new URL('http://127.0.0.1:9/action-item/7');
const facts = (method: string): RequestFacts => ({
  method,
  url,
  maxRetries: MAX_RETRIES,
  timeoutMs: 5000,
  env: {},
  random: () => 0.5,
});
const tries = (retries: number, refusals = 0): Tries => ({ retries, refusals });

const answered = (status: number, body: unknown = {}, headers = {}, retryAfter?: number): Outcome => ({
  kind: 'answered',
  status,
  headers,
  text: typeof body === 'string' ? body : JSON.stringify(body),
  retryAfter,
});
const failed = (
  code: string | undefined,
  more: Partial<TransportFailure> = {},
  status?: number,
): Outcome => ({
  kind: 'failed',
  failure: { code, error: Object.assign(new Error(`socket: ${code}`), { code }), timedOut: false, ...more },
  status,
});

const IDEMPOTENT = ['GET', 'PUT', 'DELETE'];
// PATCH is not idempotent (src/api/retry.ts): it is decided as POST is, never sent twice.
const NOT_IDEMPOTENT = ['POST', 'PATCH'];
const METHODS = [...IDEMPOTENT, ...NOT_IDEMPOTENT];
const ATTEMPTS = [0, 1, MAX_RETRIES];

function failure(d: Decision): MtgErrorLike {
  if (d.action !== 'fail') throw new Error(`expected a failure, got ${d.action}`);
  return d.error;
}
type MtgErrorLike = Extract<Decision, { action: 'fail' }>['error'];

describe('decide(outcome, tries, method)', () => {
  describe.each(METHODS)('%s', (method) => {
    const idempotent = IDEMPOTENT.includes(method);
    const what = `${method} /action-item/7`;

    it.each(ATTEMPTS)('returns any 2xx after %i retries', (n) => {
      for (const status of [200, 201, 204])
        expect(decide(answered(status), tries(n), facts(method))).toEqual({ action: 'return' });
    });

    it.each(ATTEMPTS)(
      'waits out a 429 for its Retry-After plus a little jitter, spending no retry (after %i retries)',
      (n) => {
        const d = decide(answered(429, { error: 'Too many requests' }, {}, 2), tries(n, 3), facts(method));
        expect(d).toMatchObject({ action: 'wait', tries: { retries: n, refusals: 4 } });
        if (d.action !== 'wait') return;
        expect(d.seconds).toBeGreaterThanOrEqual(2);
        expect(d.seconds).toBeLessThanOrEqual(2.25);
        expect(d.error).toBeInstanceOf(ApiError);
        expect(d.error.message).toBe('Too many requests');
      },
    );

    it('waits a backoff on a 429 without Retry-After, and a little even for Retry-After: 0', () => {
      const none = decide(answered(429), tries(0), { ...facts(method), random: () => 0 });
      expect(none).toMatchObject({ action: 'wait', seconds: 0.1 });
      const zero = decide(answered(429, {}, {}, 0), tries(0), { ...facts(method), random: () => 0 });
      expect(zero).toMatchObject({ action: 'wait', seconds: 0.05 });
    });

    it('gives up on a server that answers 429 without end', () => {
      const err = failure(
        decide(answered(429, { error: 'Slow down' }), tries(0, MAX_REFUSALS), facts(method)),
      );
      expect(err).toBeInstanceOf(RateLimitExhaustedError);
      expect(err.exitCode).toBe(ExitCode.rateLimited);
      expect(err.message).toBe(`Slow down — still rate-limited after ${MAX_REFUSALS + 1} refusals`);
    });

    it.each(ATTEMPTS)('on a 5xx after %i retries', (n) => {
      for (const status of [500, 502, 503]) {
        const d = decide(answered(status, { error: 'internal error' }), tries(n), facts(method));
        if (idempotent && n < MAX_RETRIES) {
          expect(d).toMatchObject({ action: 'retry', tries: { retries: n + 1 } });
          if (d.action === 'retry') expect(d.afterMs).toBeGreaterThan(0);
        } else if (!idempotent) {
          // The write may have been applied before the server failed: never sent again, and said so.
          expect(failure(d).message).toBe(
            `${what} failed with HTTP ${status}: internal error; ${WRITE_MAY_HAVE_BEEN_APPLIED}`,
          );
        } else {
          expect(failure(d).message).toBe(
            `${what} failed with HTTP ${status}: internal error (after ${n + 1} tries)`,
          );
        }
      }
    });

    it('retries a 408 only when the method is idempotent', () => {
      const d = decide(answered(408), tries(0), facts(method));
      expect(d.action).toBe(idempotent ? 'retry' : 'fail');
    });

    it.each(ATTEMPTS)('fails at once on a 4xx, with its exit code, after %i retries', (n) => {
      const body = { code: 'NOT_FOUND', error: 'Action item 7 not found' };
      const err = failure(decide(answered(404, body), tries(n), facts(method)));
      expect(err).toBeInstanceOf(ApiError);
      expect(err.exitCode).toBe(ExitCode.notFound);
      expect(err.message).toBe(
        n === 0
          ? 'Action item 7 not found'
          : `${what} failed with HTTP 404: Action item 7 not found (after ${n + 1} tries)`,
      );
      expect(failure(decide(answered(401, {}), tries(0), facts(method))).message).toBe(
        `${what} failed with HTTP 401 (check the API key: \`mtg auth status\`)`,
      );
    });

    it('never follows a redirect', () => {
      const d = decide(answered(302, '', { location: 'http://elsewhere.example/' }), tries(0), facts(method));
      expect(failure(d).message).toBe(
        `${what} answered with a redirect (302) to http://elsewhere.example/; redirects are not followed`,
      );
    });

    it.each(ATTEMPTS)('on a dropped connection after %i retries', (n) => {
      const d = decide(failed('ECONNRESET'), tries(n), facts(method));
      if (idempotent && n < MAX_RETRIES)
        expect(d).toMatchObject({ action: 'retry', tries: { retries: n + 1 } });
      else {
        const err = failure(d);
        expect(err).toBeInstanceOf(NetworkError);
        expect(err.message).toBe(
          `${what} failed: the connection was dropped${idempotent ? '' : `; ${WRITE_MAY_HAVE_BEEN_APPLIED}`} (after ${n + 1} ${n ? 'tries' : 'try'})`,
        );
      }
    });

    it.each(ATTEMPTS)('on a timeout with no answer after %i retries', (n) => {
      const d = decide(failed('UND_ERR_HEADERS_TIMEOUT', { timedOut: true }), tries(n), facts(method));
      if (idempotent && n < MAX_RETRIES) expect(d.action).toBe('retry');
      else
        expect(failure(d).message).toBe(
          `${what} failed: no answer within 5 s (--timeout)${idempotent ? '' : `; ${WRITE_MAY_HAVE_BEEN_APPLIED}`} (after ${n + 1} ${n ? 'tries' : 'try'})`,
        );
    });

    it('retries a refused connection once, whatever the method (nothing reached the server)', () => {
      expect(decide(failed('ECONNREFUSED'), tries(0), facts(method)).action).toBe('retry');
      expect(failure(decide(failed('ECONNREFUSED'), tries(1), facts(method))).message).toBe(
        `${what} failed: connection refused by 127.0.0.1:9 (is the server running?) (after 2 tries)`,
      );
    });

    it('never retries what another try cannot mend: a name that does not resolve, a refused certificate, a refused tunnel, a body too large', () => {
      expect(failure(decide(failed('ENOTFOUND'), tries(0), facts(method))).message).toBe(
        `${what} failed: host not found: 127.0.0.1 does not resolve (check the base URL) (after 1 try)`,
      );
      expect(failure(decide(failed('CERT_HAS_EXPIRED'), tries(0), facts(method))).message).toBe(
        `${what} failed: the TLS certificate of 127.0.0.1:9 was refused: socket: CERT_HAS_EXPIRED (CERT_HAS_EXPIRED) (after 1 try)`,
      );
      const tunnel = failed(undefined, { tunnelRefused: 407 });
      expect(failure(decide(tunnel, tries(0), facts(method))).message).toBe(
        `${what} failed: the proxy at the configured proxy refused the tunnel (HTTP 407) (after 1 try)`,
      );
      const tooLarge = new ResponseTooLargeError(what, undefined);
      expect(decide({ kind: 'too-large', error: tooLarge }, tries(0), facts(method))).toEqual({
        action: 'fail',
        error: tooLarge,
        applied: false,
      });
    });

    it("names a proxy's own failure in its words", () => {
      const error = new ProxyError(
        'the proxy at http://proxy:3128 closed the connection',
        'MTG_PROXY_CLOSED',
      );
      const outcome: Outcome = {
        kind: 'failed',
        failure: { code: 'MTG_PROXY_CLOSED', error, timedOut: false },
      };
      const d = decide(outcome, tries(MAX_RETRIES), facts(method));
      expect(failure(d).message).toBe(
        `${what} failed: the proxy at http://proxy:3128 closed the connection (after 3 tries)`,
      );
    });
  });

  it('a write answered 2xx whose body was cut off was most likely applied: retried if idempotent, then counted as applied', () => {
    const cut = failed('UND_ERR_SOCKET', {}, 200);
    const first = decide(cut, tries(0), facts('PUT'));
    expect(first).toMatchObject({ action: 'retry', tries: { retries: 1, acceptedStatus: 200 } });
    if (first.action !== 'retry') return;
    // The next try fails otherwise, and the write is still said to have been taken.
    const last = decide(failed('ECONNRESET'), { ...first.tries, retries: MAX_RETRIES }, facts('PUT'));
    expect(last).toMatchObject({ action: 'fail', applied: true });
    expect(failure(last).message).toBe(
      `PUT /action-item/7 failed: the server answered HTTP 200 but its body was cut off; ${WRITE_MAY_HAVE_BEEN_APPLIED} (after 3 tries)`,
    );
    const timedOut = decide(failed('UND_ERR_BODY_TIMEOUT', { timedOut: true }, 201), tries(0), facts('POST'));
    expect(timedOut).toMatchObject({ action: 'fail', applied: true });
    expect(failure(timedOut).message).toBe(
      `POST /action-item/7 failed: the server answered HTTP 201 but its body did not arrive within 5 s (--timeout); ${WRITE_MAY_HAVE_BEEN_APPLIED} (after 1 try)`,
    );
    // A GET's cut body is no write: nothing applied.
    expect(decide(cut, tries(MAX_RETRIES), facts('GET'))).toMatchObject({ action: 'fail', applied: false });
  });

  it("names the request once when the words are mtg's (no envelope), and marks a write that may have been applied", () => {
    const html = decide(answered(502, '<html>Bad gateway</html>'), tries(MAX_RETRIES), facts('GET'));
    expect(failure(html).message).toBe('GET /action-item/7 failed with HTTP 502 (after 3 tries)');
    const post = failure(decide(answered(500, { error: 'boom' }), tries(0), facts('POST')));
    expect(post).toMatchObject({ mayHaveBeenApplied: true });
    const reset = failure(decide(failed('ECONNRESET'), tries(0), facts('POST')));
    expect(reset).toMatchObject({ mayHaveBeenApplied: true });
    // Nothing reached the server, or nothing was a write: no such mark.
    expect(failure(decide(failed('ECONNREFUSED'), tries(1), facts('POST')))).toMatchObject({
      mayHaveBeenApplied: false,
    });
    expect(failure(decide(failed('ECONNRESET'), tries(MAX_RETRIES), facts('PUT')))).toMatchObject({
      mayHaveBeenApplied: false,
    });
    expect(failure(decide(answered(404), tries(0), facts('POST')))).toMatchObject({
      mayHaveBeenApplied: false,
    });
  });

  it('is pure: the same outcome and tries give the same decision', () => {
    const outcome = answered(503, { error: 'busy' });
    expect(decide(outcome, tries(1), facts('GET'))).toEqual(decide(outcome, tries(1), facts('GET')));
  });
});
