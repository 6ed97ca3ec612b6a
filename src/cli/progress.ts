// Progress and notes on stderr. A spinner (ora, loaded only when it will be shown) when stderr is a
// terminal and not --quiet; plain lines otherwise, and only those worth a line in a CI log.

import type { WaitInfo } from '../api/ratelimit.js';

type Spinner = { text: string; start(): Spinner; stop(): Spinner; isSpinning: boolean };

export interface ProgressOptions {
  stream: NodeJS.WritableStream & { columns?: number };
  /** stderr is a terminal (io.errIsTTY): a spinner rather than lines. */
  tty: boolean;
  /** Colors on stderr (io.color.err), decided with the data's. */
  color: boolean;
  quiet: boolean;
  verbose: boolean;
}

/** Waits shorter than this are not worth a line outside a terminal. */
const LOG_WAITS_FROM_MS = 2_000;

/**
 * The window a wait is for, named from what the server reported (its RateLimit-Limit), never from
 * the spec's plans: a server with windows of 40 per 10 s has no "per-minute window".
 */
export function windowName(limit: number | undefined): string {
  return limit === undefined ? 'the rate-limit window' : `the window of ${limit} requests`;
}

/** "Rate limited: waiting 12 s (the window of 20 requests)", for the spinner and the log. */
export function waitText(info: WaitInfo): string {
  const seconds = Math.max(1, Math.round(info.ms / 1000));
  const why =
    info.reason === 'retry-after'
      ? `${windowName(info.limit)}; the server answered 429`
      : windowName(info.limit);
  return `Rate limited: waiting ${seconds} s (${why})`;
}

/**
 * ora counts the lines to clear as text width / columns: a terminal that reports 0 columns (a
 * pseudo-terminal nobody sized, as under `script` or `docker -t`) made it clear lines forever.
 */
function withColumns<T extends { columns?: number }>(stream: T): T {
  if (stream.columns) return stream;
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'columns') return target.columns || 80;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export class Progress {
  private spinner: Spinner | undefined;
  private loading: Promise<void> | undefined;
  private text = '';
  private work = '';
  /** The wait shown beside the work, and when it ends (the text counts down as it is refreshed). */
  private waiting: { info: WaitInfo; until: number } | undefined;
  private stopped = false;
  readonly interactive: boolean;

  constructor(private readonly options: ProgressOptions) {
    this.interactive = options.tty && !options.quiet;
  }

  /** Spinner text for ongoing work ("Fetched 1,250 action items, page 50"); ends a shown wait. */
  update(text: string): void {
    this.work = text;
    this.waiting = undefined;
    this.render();
  }

  /** New figures for the same work (a time left counted down during a wait): the wait stays shown. */
  refresh(text: string): void {
    this.work = text;
    this.render();
  }

  /**
   * The spinner shows the work and, while one lasts, the wait beside it: a wait often follows a
   * page within one frame, and the reader should see both how far it got and why it pauses.
   */
  private render(): void {
    if (!this.interactive || this.stopped) return;
    const wait = this.waiting && waitText({ ...this.waiting.info, ms: this.waiting.until - Date.now() });
    this.text = [this.work, wait].filter(Boolean).join(' — ');
    if (this.spinner) {
      this.spinner.text = this.text;
      return;
    }
    this.loading ??= import('ora').then(({ default: ora }) => {
      if (this.stopped) return;
      this.spinner = ora({
        text: this.text,
        stream: withColumns(this.options.stream as NodeJS.WriteStream),
        discardStdin: false,
        // chalk's own detection ignores NO_COLOR and our --no-color: the run decided.
        ...(!this.options.color && { color: false as const }),
      }).start() as Spinner;
    });
  }

  /** A rate-limit wait: spinner text on a terminal, a line under --verbose or when long. */
  wait(info: WaitInfo): void {
    const text = waitText(info);
    if (this.interactive) {
      this.waiting = { info, until: Date.now() + info.ms };
      this.render();
    } else if (!this.options.quiet && (this.options.verbose || info.ms >= LOG_WAITS_FROM_MS)) this.line(text);
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
