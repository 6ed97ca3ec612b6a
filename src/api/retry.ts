// When a failed request may be sent again. GET and PUT are idempotent here; POST is retried only
// when it surely never reached the server, so a POST that may have been applied is never sent twice.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/** Error codes meaning the connection was never made: the server cannot have seen the request (a connect timeout included). */
// MTG_PROXY_CLOSED: the proxy dropped the CONNECT, so the request never left for the server.
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'MTG_PROXY_CLOSED',
]);

/** Errors another try cannot mend: the name does not resolve, the certificate is refused. */
const NEVER_MENDED = new Set(['ENOTFOUND', 'ERR_INVALID_URL']);

/** A TLS certificate (or TLS setup) error: node's and OpenSSL's codes. Retrying gets the same certificate. */
export function isCertificateError(code: string): boolean {
  return (
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code.startsWith('CERT_') ||
    code.startsWith('UNABLE_TO_') ||
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    code === 'SELF_SIGNED_CERT_IN_CHAIN' ||
    code === 'HOSTNAME_MISMATCH'
  );
}

/**
 * A request that got no HTTP answer may still have been applied: unless the connection was never
 * made (or its TLS handshake failed), the server may have read it before the connection dropped.
 */
export function mayHaveReachedServer(errorCode: string | undefined): boolean {
  return errorCode === undefined || !(NEVER_SENT.has(errorCode) || isCertificateError(errorCode));
}

/** A refused connection may be a server restarting: one quick retry, not the whole series. */
const RETRIED_ONCE = new Set(['ECONNREFUSED']);

export function isIdempotent(method: string): boolean {
  return method === 'GET' || method === 'PUT' || method === 'HEAD' || method === 'DELETE';
}

/**
 * A request that got no HTTP answer: retry? `errorCode` is Node's/undici's error code; `attempt`
 * counts the tries already retried (0 after the first).
 */
export function shouldRetryNetworkError(method: string, errorCode: string | undefined, attempt = 0): boolean {
  if (errorCode !== undefined && (NEVER_MENDED.has(errorCode) || isCertificateError(errorCode))) return false;
  if (errorCode !== undefined && RETRIED_ONCE.has(errorCode)) return attempt === 0;
  if (errorCode !== undefined && NEVER_SENT.has(errorCode)) return true;
  return isIdempotent(method);
}

/** A request that got an HTTP answer: retry? (429 is handled by the pacing, for every method.) */
export function shouldRetryStatus(method: string, status: number): boolean {
  if (status === 429) return true; // refused by the limiter before it was applied
  if (!isIdempotent(method)) return false;
  return status === 408 || status >= 500;
}

/** Exponential backoff with full jitter, capped (AWS architecture blog's "full jitter"). */
export function backoffMs(
  attempt: number,
  random: () => number = Math.random,
  baseMs = 200,
  capMs = 8_000,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The most jitter added to Retry-After (ms). */
export const RETRY_AFTER_JITTER_MAX_MS = 250;

/** A little jitter on top of Retry-After so that many clients do not return in the same instant. */
export function retryAfterJitterMs(random: () => number = Math.random): number {
  return Math.round(random() * RETRY_AFTER_JITTER_MAX_MS);
}
