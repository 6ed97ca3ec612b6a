import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  mayHaveReachedServer,
  shouldRetryNetworkError,
  shouldRetryStatus,
} from '../../src/api/retry.js';

describe('retry policy', () => {
  it('retries GET and PUT on 5xx, 408 and 429 but not on other 4xx', () => {
    for (const method of ['GET', 'PUT']) {
      for (const status of [500, 502, 503, 504, 408, 429])
        expect(shouldRetryStatus(method, status)).toBe(true);
      for (const status of [400, 401, 403, 404, 409]) expect(shouldRetryStatus(method, status)).toBe(false);
    }
  });

  it('never resends a POST that may have been applied', () => {
    expect(shouldRetryStatus('POST', 500)).toBe(false);
    expect(shouldRetryStatus('POST', 503)).toBe(false);
    expect(shouldRetryNetworkError('POST', 'ECONNRESET')).toBe(false);
    expect(shouldRetryNetworkError('POST', 'UND_ERR_HEADERS_TIMEOUT')).toBe(false);
    expect(shouldRetryNetworkError('POST', undefined)).toBe(false);
  });

  it('resends a POST that surely never reached the server, or that the limiter refused', () => {
    expect(shouldRetryNetworkError('POST', 'ECONNREFUSED')).toBe(true);
    // A connection that timed out while connecting never carried the request.
    expect(shouldRetryNetworkError('POST', 'UND_ERR_CONNECT_TIMEOUT')).toBe(true);
    expect(mayHaveReachedServer('UND_ERR_CONNECT_TIMEOUT')).toBe(false);
    expect(mayHaveReachedServer('UND_ERR_SOCKET')).toBe(true);
    expect(shouldRetryStatus('POST', 429)).toBe(true);
  });

  it('retries GET and PUT on dropped connections and timeouts', () => {
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']) {
      expect(shouldRetryNetworkError('GET', code)).toBe(true);
      expect(shouldRetryNetworkError('PUT', code)).toBe(true);
    }
  });

  it('backs off exponentially with jitter, within a cap (property)', () => {
    fc.assert(
      fc.property(fc.nat(30), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (attempt, r) => {
        const ms = backoffMs(attempt, () => r);
        const ceiling = Math.min(8000, 200 * 2 ** attempt);
        expect(ms).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
        expect(ms).toBeLessThanOrEqual(ceiling);
      }),
    );
    expect(backoffMs(0, () => 0.999)).toBeLessThan(backoffMs(3, () => 0));
  });
});
