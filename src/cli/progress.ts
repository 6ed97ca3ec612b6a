// Progress and notes on stderr. A spinner (ora, loaded only when it will be shown) when stderr is a
// terminal and not --quiet; plain lines otherwise, and only those worth a line in a CI log.

import type { WaitInfo } from '../api/ratelimit.js';

type Spinner = { text: string; start(): Spinner; stop(): Spinner; isSpinning: boolean };

export interface ProgressOptions {
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  quiet: boolean;
  verbose: boolean;
}

/** Waits shorter than this are not worth a line outside a terminal. */
const LOG_WAITS_FROM_MS = 2_000;

export class Progress {
  private spinner: Spinner | undefined;
  private loading: Promise<void> | undefined;
  private text = '';
  private stopped = false;
  readonly interactive: boolean;

  constructor(private readonly options: ProgressOptions) {
    this.interactive = !!options.stream.isTTY && !options.quiet;
  }

  /** Spinner text for ongoing work ("Fetched 1,250 action items, page 50"). */
  update(text: string): void {
    if (!this.interactive || this.stopped) return;
    this.text = text;
    if (this.spinner) {
      this.spinner.text = text;
      return;
    }
    this.loading ??= import('ora').then(({ default: ora }) => {
      if (this.stopped) return;
      this.spinner = ora({
        text: this.text,
        stream: this.options.stream,
        discardStdin: false,
      }).start() as Spinner;
    });
  }

  /** A rate-limit wait: spinner text on a terminal, a line under --verbose or when long. */
  wait(info: WaitInfo): void {
    const seconds = Math.max(1, Math.round(info.ms / 1000));
    const why =
      info.reason === 'retry-after'
        ? 'the server answered 429 Retry-After'
        : `the window${info.limit ? ` of ${info.limit} requests` : ''} is used up`;
    const text = `Rate limited: waiting ${seconds} s (${why})`;
    if (this.interactive) this.update(text);
    else if (!this.options.quiet && (this.options.verbose || info.ms >= LOG_WAITS_FROM_MS)) this.line(text);
  }

  /** A note for people (never data): goes to stderr unless --quiet. */
  note(text: string): void {
    if (!this.options.quiet) this.line(text);
  }

  /** Verbose log line. */
  debug(text: string): void {
    if (this.options.verbose) this.line(text);
  }

  /** Warnings and errors are printed even with --quiet. */
  line(text: string): void {
    const spinning = this.spinner?.isSpinning;
    if (spinning) this.spinner!.stop();
    this.options.stream.write(`${text}\n`);
    if (spinning && !this.stopped) this.spinner!.start();
  }

  stop(): void {
    this.stopped = true;
    this.spinner?.stop();
  }
}
