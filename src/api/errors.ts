// The errors of the API client: an HTTP answer that is an error, a request that got no answer, a
// response off the spec, rate limits exhausted, a missing key. The base type and the exit codes are
// in src/shared/errors.ts.

import { ExitCode, MtgError } from '../shared/errors.js';

/** No API key anywhere. */
export class MissingKeyError extends MtgError {
  constructor(profile: string) {
    super(`No API key for profile "${profile}". Run \`mtg auth login\` or set MTG_API_KEY.`, ExitCode.auth);
  }
}

export interface ApiIssue {
  message: string;
  path: string;
}

/** Any non-2xx answer, built from the API's error envelope (spec section 7). */
export class ApiError extends MtgError {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly issues: ApiIssue[],
    /** Seconds from Retry-After, when the server sent it. */
    readonly retryAfter: number | undefined,
    readonly method: string,
    readonly path: string,
  ) {
    super(
      message,
      exitCodeForStatus(status),
      issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)),
    );
  }
}

/** The exit code for an HTTP status: decided by status, never by the envelope's code alone. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 429) return ExitCode.rateLimited;
  return ExitCode.api;
}

/** The request never produced an HTTP answer (refused, reset, timed out). */
/**
 * The words of a write that failed after it may have reached the server (no answer, a body cut
 * off, or a 5xx to a POST, which is never sent again): whoever runs it again must check first.
 */
export const WRITE_MAY_HAVE_BEEN_APPLIED = 'the write may have been applied: check before running it again';

/**
 * `err`, given one more line saying how to check whether the write was applied when it says it may
 * have been (the command knows how; the client does not).
 */
export function withApplyCheck(err: unknown, howToCheck: string): unknown {
  if (err instanceof MtgError && err.message.includes(WRITE_MAY_HAVE_BEEN_APPLIED))
    err.details.push(howToCheck);
  return err;
}

export class NetworkError extends MtgError {
  constructor(
    message: string,
    readonly errorCode: string | undefined,
  ) {
    super(message, ExitCode.api);
  }
}

/** The server answered 2xx with a body that does not match the spec. */
export class ResponseShapeError extends MtgError {
  constructor(what: string, problems: string[]) {
    super(`Unexpected response from ${what}: it does not match the API spec`, ExitCode.api, problems);
  }
}

/** Waited on rate limits as long as allowed (--max-wait) or retried 429 as often as allowed. */
export class RateLimitExhaustedError extends MtgError {
  constructor(message: string) {
    super(message, ExitCode.rateLimited);
  }
}
