// The operations' typed errors: each a usage error (bad input: exit 2 in the CLI, isError in mtg
// mcp) carrying what went wrong as data; each adapter words it (`worded`: the CLI names flags,
// `mtg mcp` its arguments), knowing what went wrong from the class, never from the words.

import { WordedError } from '../shared/errors.js';

/** A meeting ID the mirror does not hold (deleted meetings included). */
export class UnknownMeetingError extends WordedError {
  constructor(readonly meetingId: string) {
    super(() => `no meeting ${meetingId} in the mirror`);
  }
}

/** A text argument that is empty once trimmed (it would match everything, or nothing). */
export class EmptyArgumentError extends WordedError {
  constructor(readonly argument: string) {
    super((name) => `${name(argument)} must not be empty`);
  }
}

/** An update that changes nothing: none of `fields` was given. */
export class NothingToUpdateError extends WordedError {
  constructor(readonly fields: readonly string[]) {
    super(
      (name) =>
        `nothing to update: give ${fields
          .map(name)
          .join(', ')
          .replace(/, ([^,]*)$/, ' or $1')}`,
    );
  }
}
