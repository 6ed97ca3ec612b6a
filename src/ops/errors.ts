// The operations' typed errors: each a UsageError (bad input: exit 2 in the CLI, isError in mtg
// mcp) that an adapter may reword for its callers, knowing what went wrong from the class.

import { UsageError } from '../shared/errors.js';

/** A meeting ID the mirror does not hold (deleted meetings included). */
export class UnknownMeetingError extends UsageError {
  constructor(readonly meetingId: string) {
    super(`no meeting ${meetingId} in the mirror`);
  }
}

/** A text argument that is empty once trimmed (it would match everything, or nothing). */
export class EmptyArgumentError extends UsageError {
  constructor(readonly argument: string) {
    super(`${argument} must not be empty`);
  }
}
