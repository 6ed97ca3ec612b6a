// The one seam between mtg and the world it runs in: three streams, whether each is a terminal,
// the terminal's width, the clock, and whether colors are on. The entry (src/cli/bin.ts) builds it
// from `process` with systemIO(); tests build it with testIO() and read what was written.
// Nothing else in src/ (the sandbox aside) touches process.stdout/stderr/stdin or process.env.
import type { Writable } from 'node:stream';

export type OutStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
export type InStream = NodeJS.ReadableStream & { isTTY?: boolean };
export type Env = Record<string, string | undefined>;

export interface Colors {
  /** Colors in what goes to stdout (tables, the meeting page, transcripts). */
  readonly out: boolean;
  /** Colors in what goes to stderr (the spinner). */
  readonly err: boolean;
}

export interface IOStreams {
  readonly out: OutStream;
  readonly err: OutStream;
  readonly in: InStream;
  readonly outIsTTY: boolean;
  readonly errIsTTY: boolean;
  readonly inIsTTY: boolean;
  /** Width of the terminal on stdout; undefined when stdout is no terminal or reports 0 columns. */
  readonly columns: number | undefined;
  /** The clock for dates shown relative to now ("3 days ago"). */
  now(): Date;
  /**
   * Decided once per run, by run() (src/cli/main.ts), as soon as --no-color is parsed: see
   * decideColors(). Reading it earlier is a bug and throws.
   */
  readonly color: Colors;
  decideColors(env: Env, noColorFlag: boolean): void;
}

/**
 * The one rule. Order: --no-color, then NO_COLOR (non-empty, per no-color.org), then FORCE_COLOR
 * (any value but "0"/"false", as Node reads it), then TERM=dumb, then whether the stream is a TTY.
 */
export function colorEnabled(isTTY: boolean, noColorFlag: boolean, env: Env): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/** Columns when neither COLUMNS nor the terminal says: stdout is a pipe, a file or an unsized terminal. */
export const FALLBACK_WIDTH = 80;

/**
 * The columns text for people is fitted to (tables, the meeting page): COLUMNS when it is a positive
 * whole number (a user's or CI's explicit choice, and the only size an unsized pseudo-terminal under
 * `script` or `docker -t` has), else the terminal's own width, else 80.
 */
export function outputWidth(io: Pick<IOStreams, 'columns'>, env: Env): number {
  const columns = env.COLUMNS?.trim();
  if (columns && /^\d+$/.test(columns) && Number(columns) > 0) return Number(columns);
  return io.columns || FALLBACK_WIDTH;
}

class Streams implements IOStreams {
  private decided: Colors | undefined;
  private stdin: InStream | undefined;
  readonly outIsTTY: boolean;
  readonly errIsTTY: boolean;

  /**
   * stdin is made on first use: node builds process.stdin when it is first read, and for a file or
   * /dev/null that is an fs.ReadStream, whose module brought ~25 of node's (fs/promises, readline,
   * the REPL's history, fs.watch's) into every command, though only a few read stdin.
   */
  constructor(
    readonly out: OutStream,
    readonly err: OutStream,
    private readonly openIn: () => InStream,
    private readonly clock: () => Date,
  ) {
    this.outIsTTY = out.isTTY === true;
    this.errIsTTY = err.isTTY === true;
  }
  get in(): InStream {
    this.stdin ??= this.openIn();
    return this.stdin;
  }
  get inIsTTY(): boolean {
    return this.in.isTTY === true;
  }
  get columns(): number | undefined {
    // Read each time: a terminal can be resized while a command runs. An unsized pseudo-terminal
    // (under `script` or `docker -t`) reports 0.
    return (this.outIsTTY && this.out.columns) || undefined;
  }
  now(): Date {
    return this.clock();
  }
  get color(): Colors {
    if (!this.decided) throw new Error('io.color read before run() decided it');
    return this.decided;
  }
  decideColors(env: Env, noColorFlag: boolean): void {
    this.decided = {
      out: colorEnabled(this.outIsTTY, noColorFlag, env),
      err: colorEnabled(this.errIsTTY, noColorFlag, env),
    };
  }
}

/** The real streams. Only the entry calls this. */
export function systemIO(proc: { stdout: OutStream; stderr: OutStream; stdin: InStream }): IOStreams {
  return new Streams(
    proc.stdout,
    proc.stderr,
    () => proc.stdin,
    () => new Date(),
  );
}

export interface TestIOOptions {
  /** What stdin holds (ended after it); none: an empty stdin. */
  stdin?: string;
  /** stdout, stderr and stdin are terminals (default false: pipes). */
  tty?: boolean;
  /** Terminal width when `tty` (default 100). */
  columns?: number;
  /** The fixed clock (default: the real one). */
  now?: Date;
}

export interface TestIO extends IOStreams {
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
}

/** In-memory streams for in-process tests. */
export function testIO(options: TestIOOptions = {}): TestIO {
  // Loaded here, not by the module: every command imports this file, and node:readline (with
  // fs/promises' watchers and the REPL's history) and node:stream are the tests' only.
  const readline = process.getBuiltinModule('node:readline');
  const { PassThrough, Readable, Writable } = process.getBuiltinModule('node:stream');
  const tty = options.tty ?? false;
  const buffer = (): OutStream & { text(): string } => {
    const chunks: Buffer[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk);
        cb();
      },
    }) as Writable & { isTTY?: boolean; columns?: number; text(): string };
    if (tty) {
      // What a spinner (ora) calls on a terminal: the escape codes a tty.WriteStream would write.
      Object.assign(stream, {
        isTTY: true,
        columns: options.columns ?? 100,
        rows: 24,
        cursorTo: (x: number, y?: number) => readline.cursorTo(stream, x, y),
        moveCursor: (dx: number, dy: number) => readline.moveCursor(stream, dx, dy),
        clearLine: (dir: -1 | 0 | 1) => readline.clearLine(stream, dir),
        clearScreenDown: () => readline.clearScreenDown(stream),
        getColorDepth: () => 8,
        hasColors: () => true,
      });
    }
    stream.text = () => Buffer.concat(chunks).toString('utf8');
    return stream;
  };
  const out = buffer();
  const err = buffer();
  const input: InStream =
    options.stdin === undefined && tty
      ? Object.assign(new PassThrough(), { isTTY: true }) // a terminal nobody types into
      : Object.assign(Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]), {
          isTTY: tty,
        });
  const fixed = options.now;
  const streams = new Streams(out, err, () => input, fixed ? () => new Date(fixed) : () => new Date());
  return Object.assign(streams, { stdout: () => out.text(), stderr: () => err.text() });
}
