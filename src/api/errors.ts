// The errors of the API client: an HTTP answer that is an error, a request that got no answer, a
// response off the spec, rate limits exhausted, a missing key. The base type and the exit codes are
// in src/shared/errors.ts. Every line the API client says to people (its errors, its warnings, its
// --verbose lines) is worded here, not in its request loop: the loop and decide() only pick which.

import { clipText } from '../shared/clip.js';
import { ExitCode, MtgError } from '../shared/errors.js';
import { sanitizeOneLine } from '../shared/sanitize.js';
import type { DepthCut } from './depth.js';
import { ProxyError } from './proxy.js';
import { isCertificateError } from './retry.js';

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
  /** The message is mtg's ("GET /x failed with HTTP 502"): the answer had no envelope's words. */
  wordedByMtg = false;
  /** A write that failed after it may have been applied (it is never sent again). */
  mayHaveBeenApplied = false;

  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly issues: ApiIssue[],
    /** Seconds from Retry-After, when the server sent it. */
    readonly retryAfter: number | undefined,
    readonly method: string,
    readonly path: string,
    /** The envelope's issues past MAX_ISSUES, counted, not kept. */
    readonly issuesLeftOut = 0,
  ) {
    super(message, exitCodeForStatus(status), [
      ...issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)),
      ...(issuesLeftOut > 0 ? [`…and ${issuesLeftOut.toLocaleString('en-US')} more issues`] : []),
    ]);
  }
}

// Server text is hostile and an error is one line (and a few issues): the envelope's words are
// bounded where they are read, so that every place that shows them (stderr, a batch's --json
// outcomes, watch, mcp) gets them bounded.
/** The most characters of the envelope's message kept. */
export const MAX_ERROR_MESSAGE = 500;
/** The most issues kept, and the most characters of each issue's message and path. */
export const MAX_ISSUES = 10;
const MAX_ISSUE_TEXT = 200;

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
  if ((err instanceof ApiError || err instanceof NetworkError) && err.mayHaveBeenApplied)
    err.details.push(howToCheck);
  return err;
}

export class NetworkError extends MtgError {
  /** A write that got no answer (or a cut-off one) after it may have been applied. */
  mayHaveBeenApplied = false;
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

// ---- The API client's words ----

/** The key goes only to the configured origin: a Link to another one is refused. */
export function refusedOriginError(url: URL, base: URL): MtgError {
  return new MtgError(
    `Refusing to follow a link to ${url.origin}: it is not the configured origin ${base.origin}`,
    ExitCode.api,
  );
}

/** Build the error from the envelope; tolerate servers (or proxies) that send something else. */
export function apiErrorFrom(
  status: number,
  text: string,
  retryAfter: number | undefined,
  method: string,
  path: string,
): ApiError {
  let code: string | undefined;
  let message = `${method} ${path} failed with HTTP ${status}`;
  let issues: ApiIssue[] = [];
  let issuesLeftOut = 0;
  let serverWords = false;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (body && typeof body === 'object') {
      // A code is a short word (spec: VALIDATION_ERROR, RATE_LIMITED…); anything else is not one,
      // and a batch's --json outcomes repeat it per item (a 2 MB code made 4 MB of stdout).
      if (typeof body.code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(body.code)) code = body.code;
      if (typeof body.error === 'string' && body.error) {
        message = oneLine(clipText(body.error, MAX_ERROR_MESSAGE));
        serverWords = true;
      }
      if (Array.isArray(body.issues)) {
        const all = body.issues.filter((i): i is Record<string, unknown> => !!i && typeof i === 'object');
        issuesLeftOut = Math.max(0, all.length - MAX_ISSUES);
        issues = all.slice(0, MAX_ISSUES).map((i) => ({
          message: oneLine(clipText(String(i.message ?? ''), MAX_ISSUE_TEXT)),
          path: oneLine(clipText(String(i.path ?? ''), MAX_ISSUE_TEXT)),
        }));
      }
    }
  } catch {
    // Not the envelope (a proxy's HTML page, say): keep the generic message.
  }
  const hint = status === 401 ? ' (check the API key: `mtg auth status`)' : '';
  const err = new ApiError(
    status,
    code,
    `${message}${hint}`,
    issues,
    retryAfter,
    method,
    path,
    issuesLeftOut,
  );
  err.wordedByMtg = !serverWords;
  return err;
}

/** Line breaks in server text as spaces: the message is one line, each issue one line. */
const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');

/** Redirects are not followed: the key must not travel to wherever Location points. */
export function redirectError(what: string, answer: ApiError, location: string | undefined): ApiError {
  return new ApiError(
    answer.status,
    undefined,
    `${what} answered with a redirect (${answer.status}) to ${location ?? 'nowhere'}; redirects are not followed`,
    [],
    undefined,
    answer.method,
    answer.path,
  );
}

/** A 5xx to a write that is never sent again (retry.ts): it may have been applied before the error. */
export function writeServerError(what: string, answer: ApiError): ApiError {
  const err = new ApiError(
    answer.status,
    answer.code,
    `${what} failed with HTTP ${answer.status}: ${answer.message}; ${WRITE_MAY_HAVE_BEEN_APPLIED}`,
    answer.issues,
    answer.retryAfter,
    answer.method,
    answer.path,
    answer.issuesLeftOut,
  );
  err.mayHaveBeenApplied = true;
  return err;
}

/** The last answer after retries: named (the server's "internal error" does not say which request), tries counted. */
export function retriedApiError(what: string, answer: ApiError, tries: number): ApiError {
  return new ApiError(
    answer.status,
    answer.code,
    `${answer.wordedByMtg ? '' : `${what} failed with HTTP ${answer.status}: `}${answer.message} (after ${tries} tries)`,
    answer.issues,
    answer.retryAfter,
    answer.method,
    answer.path,
    answer.issuesLeftOut,
  );
}

/** A server that answers 429 without end. */
export function stillRateLimitedError(answer: ApiError, refusals: number): RateLimitExhaustedError {
  return new RateLimitExhaustedError(`${answer.message} — still rate-limited after ${refusals} refusals`);
}

/** --max-wait ended the wait after a 429: say what the server said too. */
export function waitAfterRefusalError(
  answer: ApiError,
  waitEnded: RateLimitExhaustedError,
): RateLimitExhaustedError {
  return new RateLimitExhaustedError(`${answer.message} — ${waitEnded.message}`);
}

/** How a request that got no HTTP answer failed (transport.ts classifies it once). */
export interface TransportFailure {
  /** Node's or undici's error code; a timeout is UND_ERR_HEADERS_TIMEOUT or UND_ERR_BODY_TIMEOUT. */
  code: string | undefined;
  error: unknown;
  /** The whole attempt ran out of --timeout. */
  timedOut: boolean;
  /** A proxy answered CONNECT with this error status. */
  tunnelRefused?: number;
}

export interface FailureWords {
  what: string;
  url: URL;
  timeoutMs: number;
  /** The proxy the request went through, if any. */
  proxy: string | undefined;
  /** A write answered 2xx whose body then failed: it was most likely applied. */
  acceptedStatus: number | undefined;
  /** A write that is not sent again and may have reached the server. */
  mayHaveBeenApplied: boolean;
  tries: number;
}

export function networkError(failure: TransportFailure, words: FailureWords): NetworkError {
  const { what, acceptedStatus, timeoutMs, proxy, tries } = words;
  const mayHaveBeenApplied =
    acceptedStatus !== undefined || (failure.tunnelRefused === undefined && words.mayHaveBeenApplied);
  const problem =
    acceptedStatus !== undefined
      ? `the server answered HTTP ${acceptedStatus} but ${
          failure.timedOut
            ? `its body did not arrive within ${timeoutMs / 1000} s (--timeout)`
            : 'its body was cut off'
        }; ${WRITE_MAY_HAVE_BEEN_APPLIED}`
      : failure.tunnelRefused === undefined
        ? describeNetworkError(failure, words) +
          // Not sent again (retry.ts): whoever runs it again must know it may have been applied.
          (words.mayHaveBeenApplied ? `; ${WRITE_MAY_HAVE_BEEN_APPLIED}` : '')
        : `the proxy at ${proxy ?? 'the configured proxy'} refused the tunnel (HTTP ${failure.tunnelRefused})`;
  const err = new NetworkError(
    `${what} failed: ${problem} (after ${tries} ${tries > 1 ? 'tries' : 'try'})`,
    failure.code,
  );
  err.mayHaveBeenApplied = mayHaveBeenApplied;
  return err;
}

function describeNetworkError(
  { error, code }: TransportFailure,
  { timeoutMs, proxy, url }: FailureWords,
): string {
  if (error instanceof ProxyError) return error.message;
  const through = proxy ? ` through the proxy at ${proxy}` : '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT')
    return `no answer within ${timeoutMs / 1000} s (--timeout)${through}`;
  // The server did answer, but its body never finished (or trickled): say so, not "no answer".
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return `the answer did not arrive in full within ${timeoutMs / 1000} s (--timeout)${through}`;
  }
  if (code === 'ECONNREFUSED') return `connection refused by ${url.host} (is the server running?)`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was dropped';
  if (code === 'ENOTFOUND') return `host not found: ${url.hostname} does not resolve (check the base URL)`;
  const message = sanitizeOneLine((error instanceof Error ? error.message : String(error)).split('\n')[0]!);
  if (code !== undefined && isCertificateError(code)) {
    return `the TLS certificate of ${url.host} was refused: ${message} (${code})`;
  }
  return message;
}

/**
 * The largest response body mtg reads: far above any real page (a page of 100 meetings with long
 * notes is a few MB), and low enough that the process never holds more than a few hundred MB for
 * one (the bytes, then the text, then the parsed objects). A 400 MB page grew it to 3.4 GB.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** A response body over MAX_RESPONSE_BYTES: not read further, not retried (it would be as large again). */
export class ResponseTooLargeError extends MtgError {
  constructor(what: string, declaredBytes: number | undefined) {
    super(
      `${what} answered with a body ${
        declaredBytes === undefined ? 'of more than' : `of ${megabytes(declaredBytes)} (Content-Length), over`
      } ${megabytes(MAX_RESPONSE_BYTES)}, the most mtg reads in one response; stopped reading it`,
      ExitCode.api,
    );
  }
}

function megabytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MiB`
    : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** A 2xx body that is not JSON. */
export function notJsonError(what: string): ResponseShapeError {
  return new ResponseShapeError(what, ['the body is not valid JSON']);
}

/** A schema's issues, the first five, each at its path. */
export function schemaError(
  what: string,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): ResponseShapeError {
  const problems = issues.slice(0, 5).map((issue) => {
    const path = issue.path.length
      ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')
      : '(body)';
    return `${path.replace(/^\./, '')}: ${issue.message}`;
  });
  if (issues.length > 5) problems.push(`…and ${issues.length - 5} more`);
  return new ResponseShapeError(what, problems);
}

/** The client's warnings (stderr, even with --quiet). Server text goes through the one sanitizer. */
export const clientWarning = {
  hookFailed: (err: unknown) =>
    `warning: a request hook failed: ${sanitizeOneLine(err instanceof Error ? err.message : String(err))}`,
  tooDeep: (what: string, cuts: readonly DepthCut[], maxDepth: number) => {
    const [first] = cuts;
    const holder = first?.item === undefined ? 'the body' : `item [${first.item}]`;
    const where =
      first?.field === undefined
        ? holder
        : `${holder}'s field "${sanitizeOneLine(clipText(first.field, 80))}"`;
    const others = cuts.length > 1 ? ` (so do ${(cuts.length - 1).toLocaleString('en-US')} more items)` : '';
    return (
      `warning: unexpected response from ${what}: ${where} nests deeper than ${maxDepth} levels${others}; ` +
      'what lies deeper is cut (a mark stands in its place) and the item is kept'
    );
  },
  unlisted: (what: string, found: string) =>
    `warning: ${what} returned a value the API spec does not list (${sanitizeOneLine(found.slice(0, 80))}); ` +
    'values like it are printed as they came (this warning is shown once)',
};

/** The client's --verbose lines: one per attempt, and one per wait. */
export const clientLog = {
  failed: (shown: string, code: string | undefined, ms: number) =>
    `${shown} -> ${code ?? 'network error'} after ${Math.round(ms)} ms`,
  answered: (
    shown: string,
    status: number,
    ms: number,
    rate: { limit?: number; remaining?: number; reset?: number },
  ) =>
    `${shown} -> ${status} in ${Math.round(ms)} ms` +
    (rate.remaining !== undefined
      ? ` (rate limit ${rate.remaining}/${rate.limit ?? '?'} left, resets in ${rate.reset ?? '?'} s)`
      : ''),
  retrying: (what: string, ms: number) => `${what}: retrying in ${ms} ms`,
  rateLimited: (what: string, seconds: number) => `${what}: rate-limited, waiting ${seconds.toFixed(1)} s`,
  noBody: (what: string, status: number) =>
    `${what}: the server returned no body (HTTP ${status}); the write was applied`,
};
