// What the server says about its rate limits: RateLimit-Limit/Remaining/Reset (spec section 8) and
// Retry-After. The limiter (ratelimit.ts) is the model that paces by them.

export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  /** Seconds until the reported window refills (spec section 8: a delay, never a time of day). */
  reset?: number;
}

/** RateLimit-Limit, -Remaining and -Reset (a delay in seconds, as the spec says). */
export function parseRateLimitHeaders(get: (name: string) => string | undefined): RateLimitHeaders {
  const num = (name: string) => {
    const value = Number.parseFloat(get(name) ?? '');
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  return {
    limit: num('ratelimit-limit'),
    remaining: num('ratelimit-remaining'),
    reset: num('ratelimit-reset'),
  };
}

/** Retry-After is delta-seconds or an HTTP-date (RFC 9110 section 10.2.3). Returns seconds. */
export function parseRetryAfter(raw: string | undefined, now: number): number | undefined {
  const trimmed = raw?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number.parseFloat(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
