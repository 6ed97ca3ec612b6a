// The base of mtg's errors and the contract's exit codes, for every layer. Expected failures carry a
// message meant for people and an exit code; the CLI prints the message (never a stack) and exits
// with the code. The errors of one layer live in it (src/api/errors.ts, src/config/errors.ts, …).

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

/** Ctrl-C or SIGTERM. */
export class InterruptedError extends MtgError {
  constructor() {
    super('Interrupted', ExitCode.interrupted);
  }
}

export function exitCodeOf(err: unknown): ExitCode {
  return err instanceof MtgError ? err.exitCode : ExitCode.api;
}
