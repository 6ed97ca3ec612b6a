// Tag names, and the conflict a taken name causes (create and update).

import { ApiError } from '../../api/errors.js';
import { UsageError } from '../../shared/errors.js';

export function tagName(value: string, what: string): string {
  if (value.trim() === '') throw new UsageError(`${what} must not be empty`);
  return value;
}

/** 409 from POST /tag or PUT /tag/{id}: say plainly which name is taken (still exit 1). */
export function nameConflict(err: unknown, name: string): unknown {
  if (!(err instanceof ApiError) || err.status !== 409) return err;
  // A server message that names the tag says it already (often with the existing tag's id): once.
  const serverSaysIt = err.message.includes(`"${name}"`);
  return new ApiError(
    err.status,
    err.code,
    serverSaysIt ? err.message : `A tag named "${name}" already exists`,
    serverSaysIt ? err.issues : [...err.issues, { path: '', message: `server: ${err.message}` }],
    err.retryAfter,
    err.method,
    err.path,
  );
}
