// The error types of mtg and the contract's exit codes. Expected failures carry a message meant for
// people and an exit code; the CLI prints the message (never a stack) and exits with the code.

export const ExitCode = {
  ok: 0,
  api: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rateLimited: 5,
  partial: 6,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class MtgError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** Extra lines printed under the message (validation issues, hints). */
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad input: nothing was sent. */
export class UsageError extends MtgError {
  constructor(message: string, details: string[] = []) {
    super(message, ExitCode.usage, details);
  }
}

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

/** Ctrl-C or SIGTERM. */
export class InterruptedError extends MtgError {
  constructor() {
    super('Interrupted', ExitCode.interrupted);
  }
}

export function exitCodeOf(err: unknown): ExitCode {
  return err instanceof MtgError ? err.exitCode : ExitCode.api;
}
