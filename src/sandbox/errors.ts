// The error envelope of spec section 7, with codes and statuses from assumptions.ts.

import type { z } from 'zod';
import { ERROR_CODES } from '../api/assumptions.js';
import type { ErrorEnvelope, ErrorIssue } from '../api/schemas.js';

export type ErrorStatus = keyof typeof ERROR_CODES;
export type Issue = z.infer<typeof ErrorIssue>;

/** Thrown by handlers and validators; the server turns it into the envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly issues?: Issue[],
  ) {
    super(message);
  }
}

export function validationError(issues: Issue[]): ApiError {
  const first = issues[0];
  const summary = first ? `${first.path === '' ? 'body' : first.path}: ${first.message}` : 'invalid request';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new ApiError(400, `Validation failed: ${summary}${more}`, issues);
}

export function notFound(message: string): ApiError {
  return new ApiError(404, message);
}

export function envelope(err: ApiError): ErrorEnvelope {
  const body: ErrorEnvelope = { code: ERROR_CODES[err.status], error: err.message };
  if (err.issues) body.issues = err.issues;
  return body;
}
