// --jq EXPR: the whole JSON document a command would print goes through a jq filter in-process, and
// what jq prints is the output. jq-web is jq itself (1.7) compiled to WebAssembly: real jq
// semantics, no binary to download or install, ~25 ms to load, and loaded only when --jq is given.
//
// The filter needs the whole document (all pages as one array), so it is collected in memory as
// bytes (no parsed copy on our side) and handed to jq once the command has written it all; --limit
// still stops the fetching early, because the command runs exactly as without --jq.

import { Writable } from 'node:stream';
import type { JqWeb } from 'jq-web';
import type { OutputSink, OutputStage } from '../output/sink.js';
import { ExitCode, MtgError, UsageError } from '../shared/errors.js';

/** Strings raw, everything else compact JSON, one result per line (as `gh --jq`). */
const RUN_FLAGS = ['-r', '-c'];

let jqModule: Promise<JqWeb> | undefined;
function loadJq(): Promise<JqWeb> {
  jqModule ??= instantiateJq();
  return jqModule;
}

/** What jq wrote to stderr during the current runJq (jq runs synchronously: one run at a time). */
let jqStderr: string[] | undefined;

/**
 * jq-web gives what jq wrote to stderr only on failure (error.stderr); on success it calls the
 * global console.warn('%cstderr%c: %c%s', css, css, css, text). It takes no print/printErr (its
 * export is the promise of an instance it made itself, its stderr goes to its own buffer), so its
 * file is run as node runs a CommonJS module, through the same wrapper parameters plus `console`:
 * jq-web's code sees a console of ours, whose warn records that text, and the global console is
 * left alone (#21: nothing reassigns a method at run time).
 */
async function instantiateJq(): Promise<JqWeb> {
  const [{ createRequire }, { readFileSync }, { dirname }, { compileFunction }] = await Promise.all([
    import('node:module'),
    import('node:fs'),
    import('node:path'),
    import('node:vm'),
  ]);
  const file = createRequire(import.meta.url).resolve('jq-web');
  const jqConsole = Object.create(console) as Console;
  jqConsole.warn = (...args: unknown[]) => {
    const text = args.length === 5 && args[0] === '%cstderr%c: %c%s' ? args[4] : args.join(' ');
    if (jqStderr) jqStderr.push(String(text));
    else console.warn(...args);
  };
  const module = { exports: {} as unknown };
  const params = ['exports', 'require', 'module', '__filename', '__dirname', 'console'];
  const body = compileFunction(readFileSync(file, 'utf8'), params, { filename: file });
  body.call(module.exports, module.exports, createRequire(file), module, file, dirname(file), jqConsole);
  return (await module.exports) as JqWeb;
}

interface JqFailure {
  exitCode?: number;
  stderr?: string;
  message?: string;
}

/** jq's own message without its "jq: error" prefix and the name of the input file. */
function jqMessage(err: unknown): string {
  const e = (err ?? {}) as JqFailure;
  const text = typeof e.stderr === 'string' && e.stderr ? e.stderr : String(e.message ?? err);
  const first =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.startsWith('jq: error')) ?? text.split('\n')[0]!;
  return first
    .replace(/^jq: error(?: \(at [^)]*\))?: ?/, '')
    .replace(/:\s*$/, '')
    .trim();
}

/** What jq wrote to stderr before its error line (debug, stderr): the lines that are not the error. */
function stderrBeforeError(err: unknown): string {
  const text = (err as JqFailure | undefined)?.stderr;
  if (typeof text !== 'string' || !text) return '';
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.trim().startsWith('jq: error'));
  return at > 0 ? `${lines.slice(0, at).join('\n')}\n` : '';
}

/**
 * Compile EXPR without running it (jq over zero inputs compiles the program and stops), so a bad
 * expression is exit 2 before any request.
 */
export async function compileJq(expr: string): Promise<JqWeb> {
  const jq = await loadJq();
  try {
    jq.raw('', expr, [...RUN_FLAGS]);
  } catch (err) {
    const count = /jq: (\d+) compile errors?/.exec(String((err as JqFailure).stderr ?? ''))?.[1];
    const more = count && Number(count) > 1 ? ` (and ${Number(count) - 1} more)` : '';
    throw new UsageError(`--jq: ${jqMessage(err)}${more}`);
  }
  return jq;
}

/** jq failed while running over a document the command produced (not a compile error). */
export class JqRuntimeError extends MtgError {
  constructor(
    readonly jqText: string,
    /** What jq printed on stderr before failing (debug output), shown before the error. */
    readonly jqStderr = '',
  ) {
    super(`jq: ${jqText}`, ExitCode.api);
  }
}

/**
 * A jq runtime error after the command's writes were applied: the user must not take it for a
 * failed write and run the command again (that would write again). Same exit code (1).
 */
export function afterWrites(err: JqRuntimeError, writes: number): MtgError {
  const applied =
    writes === 1
      ? 'the request was applied; --jq failed on its response'
      : `${writes} requests were applied; --jq failed on their responses`;
  return new MtgError(
    `${applied}: ${err.jqText}; running the command again would repeat the ${writes === 1 ? 'write' : 'writes'}`,
    err.exitCode,
  );
}

/**
 * Runs EXPR over one JSON document: what jq printed on stdout, each result on its own line, and
 * what it printed on stderr (`debug`, `stderr`), which jq-web hands to its console's warn (ours:
 * instantiateJq) when the run succeeds, to go to our stderr as jq prints it.
 */
export function runJq(jq: JqWeb, expr: string, document: Uint8Array): { out: string; err: string } {
  let out: string | undefined;
  const stderr: string[] = [];
  jqStderr = stderr;
  const err = () => stderr.map((line) => `${line}\n`).join('');
  try {
    out = jq.raw(document, expr, [...RUN_FLAGS]);
  } catch (failure) {
    let message = jqMessage(failure);
    // jq-web's `input` past the one document fails with a bare "break" (jq itself: "No more inputs").
    if (message === 'break' && /\binput\b/.test(expr)) {
      message = 'no more inputs (--jq reads one input: the whole document the command prints)';
    }
    throw new JqRuntimeError(message, err() + stderrBeforeError(failure));
  } finally {
    jqStderr = undefined;
  }
  // jq-web drops the last newline of stdout; undefined means jq printed nothing at all.
  return { out: out === undefined ? '' : `${out}\n`, err: err() };
}

/**
 * The --jq stage of a run's output (OutputPlan.stage, src/cli/output-plan.ts): every document the
 * command writes is collected, and what jq makes of it goes to the real output (stdout or the -o
 * file, opened as without --jq, so a bad -o path still fails before any request). main.ts compiles
 * EXPR first (compileJq), so a syntax error is exit 2 before anything is sent.
 */
export async function jqStage(expr: string, stderr: NodeJS.WritableStream): Promise<OutputStage> {
  const jq = await compileJq(expr);
  const { sanitizeForTerminal } = await import('../shared/sanitize.js');
  return (target) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk);
        size += chunk.length;
        cb();
      },
    });
    const sink: OutputSink = {
      stream,
      get bytesWritten() {
        return size;
      },
      flush: async () => {},
      async commit() {
        try {
          const document = Buffer.concat(chunks, size);
          chunks.length = 0;
          let text: string;
          try {
            const result = runJq(jq, expr, document);
            text = result.out;
            if (result.err) stderr.write(sanitizeForTerminal(result.err));
          } catch (err) {
            if (err instanceof JqRuntimeError && err.jqStderr)
              stderr.write(sanitizeForTerminal(err.jqStderr));
            throw err;
          }
          // Raw strings are server text: a person at a terminal sees them without control sequences
          // (a pipe or a file gets them exactly as jq printed them).
          if ((target.stream as { isTTY?: boolean }).isTTY) text = sanitizeForTerminal(text);
          await new Promise<void>((resolve, reject) =>
            target.stream.write(text, (err) => (err ? reject(err) : resolve())),
          );
          await target.commit();
        } catch (err) {
          await target.abort().catch(() => undefined);
          throw err;
        }
      },
      async abort() {
        chunks.length = 0;
        await target.abort();
      },
    };
    return sink;
  };
}
