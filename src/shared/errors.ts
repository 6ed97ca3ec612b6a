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
  /**
   * `sent`: it cut off a request that may have reached the server (in flight, or between tries after
   * an answer that does not say it was refused): it may have been applied. Otherwise nothing was
   * sent, or the server refused what was (a 429 being waited out applied nothing).
   */
  constructor(readonly sent = false) {
    super('Interrupted', ExitCode.interrupted);
  }
}

export function exitCodeOf(err: unknown): ExitCode {
  return err instanceof MtgError ? err.exitCode : ExitCode.api;
}

/** How a caller names an argument: the CLI its flag (`--since`), `mtg mcp` the tool's argument (`since`). */
export type ArgumentName = (argument: string) => string;

/** Arguments by their own names (`since`), as the operations (src/ops/) and `mtg mcp` call them. */
export const plainName: ArgumentName = (argument) => argument;

/** Arguments as flags: `meetingId` is `--meeting-id`. */
export const flagName: ArgumentName = (argument) =>
  `--${argument.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * A usage error about named arguments, worded by whoever reports it (`worded`): the error carries
 * what went wrong as data, never as words another module must take apart. `message` names the
 * arguments as `defaultName` does (the module that throws it knows its callers).
 */
export class WordedError extends UsageError {
  constructor(
    private readonly sentence: (name: ArgumentName) => string,
    defaultName: ArgumentName = plainName,
  ) {
    super(sentence(defaultName));
  }

  worded(name: ArgumentName): string {
    return this.sentence(name);
  }
}
