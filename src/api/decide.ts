// What to do after one attempt, decided without I/O or a clock (after Octokit's request/retry split):
// return the answer, retry after a backoff, wait for Retry-After (a 429), or fail with a typed error
// worded in errors.ts. The client's loop (client.ts) does the sending, the waiting and the telling.

import type { MtgError } from '../shared/errors.js';
import {
  type ApiError,
  apiErrorFrom,
  networkError,
  redirectError,
  retriedApiError,
  stillRateLimitedError,
  writeServerError,
} from './errors.js';
import { proxyFor } from './proxy.js';
import {
  backoffMs,
  isIdempotent,
  mayHaveReachedServer,
  retryAfterJitterMs,
  shouldRetryNetworkError,
  shouldRetryStatus,
} from './retry.js';
import { type Exchange, type Headers, headerValue } from './transport.js';

/** One attempt's end, as decide() reads it: an answer (with its Retry-After in seconds) or a failure. */
export type Outcome =
  | (Extract<Exchange, { kind: 'answered' }> & { retryAfter?: number })
  | Exclude<Exchange, { kind: 'answered' }>;

/** What the earlier attempts of this request left. */
export interface Tries {
  /** Tries that counted against --max-retries (a 429 does not). */
  retries: number;
  /** 429s waited out. */
  refusals: number;
  /** A write answered 2xx whose body then failed: it was most likely applied. */
  acceptedStatus?: number;
}

export interface RequestFacts {
  method: string;
  url: URL;
  maxRetries: number;
  timeoutMs: number;
  /** Where the proxy variables are read (the message names the proxy). */
  env: Record<string, string | undefined>;
  /** The jitter's source: decide() reads no clock and no global random. */
  random: () => number;
}

export type Decision =
  | { action: 'return' }
  | { action: 'retry'; afterMs: number; error: MtgError; tries: Tries }
  /** A 429: the limiter holds everyone for `seconds`; the request keeps its place and spends no retry. */
  | { action: 'wait'; seconds: number; error: ApiError; tries: Tries }
  /** `applied`: a write the server took (a 2xx whose body failed) is counted as applied. */
  | { action: 'fail'; error: MtgError; applied: boolean };

/** A 429 is waited out, not counted as a retry; this only bounds a server that never stops. */
export const MAX_REFUSALS = 1000;
/** A 429 with Retry-After: 0 still waits a little, so that a storm of them cannot spin. */
export const MIN_REFUSAL_WAIT_S = 0.05;

export function decide(outcome: Outcome, tries: Tries, facts: RequestFacts): Decision {
  if (outcome.kind === 'too-large') return { action: 'fail', error: outcome.error, applied: false };
  if (outcome.kind === 'failed') return decideFailure(outcome, tries, facts);
  const { status } = outcome;
  if (status >= 200 && status < 300) return { action: 'return' };
  const { method, url } = facts;
  const what = `${method} ${url.pathname}`;
  const answer = apiErrorFrom(status, outcome.text, outcome.retryAfter, method, url.pathname);
  if (status >= 300 && status < 400) {
    return {
      action: 'fail',
      error: redirectError(what, answer, header(outcome.headers, 'location')),
      applied: false,
    };
  }
  if (status === 429) {
    const refusals = tries.refusals + 1;
    if (refusals > MAX_REFUSALS) {
      return { action: 'fail', error: stillRateLimitedError(answer, refusals), applied: false };
    }
    const seconds =
      Math.max(
        outcome.retryAfter ?? backoffMs(Math.min(refusals - 1, 5), facts.random) / 1000,
        MIN_REFUSAL_WAIT_S,
      ) +
      retryAfterJitterMs(facts.random) / 1000;
    return { action: 'wait', seconds, error: answer, tries: { ...tries, refusals } };
  }
  if (tries.retries < facts.maxRetries && shouldRetryStatus(method, status))
    return retry(answer, tries, facts);
  // Not sent again (retry.ts), and a server error may come after the write was applied.
  if (status >= 500 && !isIdempotent(method)) {
    return { action: 'fail', error: writeServerError(what, answer), applied: false };
  }
  if (tries.retries > 0) {
    return { action: 'fail', error: retriedApiError(what, answer, tries.retries + 1), applied: false };
  }
  return { action: 'fail', error: answer, applied: false };
}

function decideFailure(
  outcome: Extract<Outcome, { kind: 'failed' }>,
  tries: Tries,
  facts: RequestFacts,
): Decision {
  const { failure, status } = outcome;
  const { method, url } = facts;
  const write = method !== 'GET' && method !== 'HEAD';
  const acceptedStatus =
    write && status !== undefined && status >= 200 && status < 300 ? status : tries.acceptedStatus;
  const error = networkError(failure, {
    what: `${method} ${url.pathname}`,
    url,
    timeoutMs: facts.timeoutMs,
    proxy: proxyFor(url, facts.env),
    acceptedStatus,
    mayHaveBeenApplied: write && !isIdempotent(method) && mayHaveReachedServer(failure.code),
    tries: tries.retries + 1,
  });
  const next = { ...tries, acceptedStatus };
  if (
    tries.retries < facts.maxRetries &&
    failure.tunnelRefused === undefined &&
    shouldRetryNetworkError(method, failure.code, tries.retries)
  ) {
    return retry(error, next, facts);
  }
  return { action: 'fail', error, applied: acceptedStatus !== undefined };
}

function retry(error: MtgError, tries: Tries, facts: RequestFacts): Decision {
  return {
    action: 'retry',
    afterMs: backoffMs(tries.retries, facts.random),
    error,
    tries: { ...tries, retries: tries.retries + 1 },
  };
}

function header(headers: Headers, name: string): string | undefined {
  return headerValue(headers[name]);
}
