import { describe, expect, it } from 'vitest';
import { apiErrorFrom } from '../../src/api/client.js';
import { exitCodeForStatus } from '../../src/api/errors.js';
import { ExitCode } from '../../src/shared/errors.js';

describe('error mapping', () => {
  it('maps HTTP statuses to the contract exit codes', () => {
    expect(exitCodeForStatus(401)).toBe(ExitCode.auth);
    expect(exitCodeForStatus(403)).toBe(ExitCode.auth);
    expect(exitCodeForStatus(404)).toBe(ExitCode.notFound);
    expect(exitCodeForStatus(429)).toBe(ExitCode.rateLimited);
    expect(exitCodeForStatus(400)).toBe(ExitCode.api);
    expect(exitCodeForStatus(409)).toBe(ExitCode.api);
    expect(exitCodeForStatus(500)).toBe(ExitCode.api);
  });

  it('builds the error from the envelope, with one detail line per issue', () => {
    const body = JSON.stringify({
      code: 'VALIDATION_ERROR',
      error: 'Invalid query',
      issues: [
        { message: 'must be one of Me, NotMe', path: 'assigneeType' },
        { message: 'cursor does not match these filters', path: 'cursor' },
      ],
    });
    const err = apiErrorFrom(400, body, undefined, 'GET', '/action-items');
    expect(err.message).toBe('Invalid query');
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details).toEqual([
      'assigneeType: must be one of Me, NotMe',
      'cursor: cursor does not match these filters',
    ]);
    expect(err.exitCode).toBe(ExitCode.api);
  });

  it('decides by status even when the code says otherwise, and survives a non-JSON body', () => {
    expect(
      apiErrorFrom(404, JSON.stringify({ code: 'INTERNAL', error: 'x' }), undefined, 'GET', '/a').exitCode,
    ).toBe(4);
    const html = apiErrorFrom(502, '<html>Bad gateway</html>', undefined, 'GET', '/a');
    expect(html.message).toBe('GET /a failed with HTTP 502');
    expect(html.exitCode).toBe(1);
  });

  it('keeps Retry-After and hints at auth status on 401', () => {
    const err = apiErrorFrom(
      401,
      JSON.stringify({ code: 'UNAUTHORIZED', error: 'Invalid API key' }),
      3,
      'GET',
      '/people',
    );
    expect(err.retryAfter).toBe(3);
    expect(err.message).toContain('mtg auth status');
    expect(err.exitCode).toBe(3);
  });
});
