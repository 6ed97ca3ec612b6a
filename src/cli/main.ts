// run(argv, io, env): parses the command line, runs the command with a Context, maps errors to the
// contract's exit codes, and turns an interrupt into a clean stop (exit 130, output well-formed).
// No side effect on import and no `process`: the entry (src/cli/bin.ts) wires it to the real
// process, tests call it in-process with testIO() (test/helpers/inprocess.ts).

import { setMaxListeners } from 'node:events';
import { CommanderError } from 'commander';
import { commandTree } from '../commands/index.js';
import type { Clock } from '../shared/clock.js';
import { ExitCode, exitCodeOf, flagName, InterruptedError, MtgError, WordedError } from '../shared/errors.js';
import { sanitizeForTerminal, sanitizeOneLine } from '../shared/sanitize.js';
import { Context, VERSION } from './context.js';
import { parseGlobals } from './globals.js';
import type { Env, IOStreams } from './io.js';
import { buildProgram, treeFor } from './program.js';
import { systemErrorLine } from './system-error.js';

export interface RunOptions {
  /**
   * Aborted by the entry on the first SIGINT or SIGTERM (its reason: the signal's name); run()
   * then stops the command cleanly. A second signal is the entry's to handle (it exits at once).
   */
  interrupt?: AbortSignal;
  /** The Context's clock (default: the real one); tests pass a virtual one (test/helpers/virtual-clock.ts). */
  clock?: Clock;
}

export async function run(argv: string[], io: IOStreams, env: Env, opts: RunOptions = {}): Promise<number> {
  const clock = opts.clock;
  const controller = new AbortController();
  // Every in-flight request and every rate-limit wait listens to this signal, and a batch has up to
  // 8 of each at once (src/cli/bulk.ts): past node's default of 10, `action-items update` of 60 IDs
  // printed a MaxListenersExceededWarning. Listeners are removed as each request settles.
  setMaxListeners(64, controller.signal);
  let exitCode: number = ExitCode.ok;
  let context: Context | undefined;

  const onInterrupt = () => {
    controller.abort(new InterruptedError());
    if (opts.interrupt?.reason === 'SIGTERM') exitCode = ExitCode.interrupted;
  };
  if (opts.interrupt?.aborted) onInterrupt();
  else opts.interrupt?.addEventListener('abort', onInterrupt, { once: true });

  const program = buildProgram(
    treeFor(argv, commandTree),
    VERSION,
    async (spec, args, opts, command) => {
      const globals = parseGlobals(command.optsWithGlobals());
      io.decideColors(env, !globals.color);
      context = new Context(globals, io, env, controller.signal, commandTree, clock);
      context.commandPath = commandPath(command);
      // A bad expression is exit 2 before the command sends anything.
      if (globals.jq !== undefined) await (await import('./jq.js')).compileJq(globals.jq);
      // Every -o/--checkpoint destination, before the command sends anything (exit 2 if unusable).
      if (globals.output !== undefined || globals.checkpoint !== undefined) {
        const { checkDestinations } = await import('../output/destination.js');
        await checkDestinations({ ...globals, list: !!spec.list });
      }
      try {
        exitCode = (await spec.run(context, args, opts)) ?? ExitCode.ok;
      } catch (err) {
        // Any command that writes: a --jq failure on its output must not read as a failed write.
        const writes = context.appliedWrites;
        if (writes > 0 && globals.jq !== undefined) {
          const { JqRuntimeError, afterWrites } = await import('./jq.js');
          if (err instanceof JqRuntimeError) throw afterWrites(err, writes);
        }
        throw err;
      }
    },
    {
      writeOut: (s) => io.out.write(s),
      writeErr: (s) => io.err.write(s),
    },
  );

  try {
    if (argv.length === 0) {
      io.out.write(program.helpInformation());
      return ExitCode.ok;
    }
    // `mtg help TOPIC|COMMAND...`: as the start-up file answers it from dist/help.json (entry.ts),
    // global options before, between or after the words included (they change no help text).
    const helpWords = helpCommandWords(argv, program);
    if (helpWords) {
      const answer = (await import('./help-build.js')).answerHelpCommand(helpWords);
      if (answer) {
        io.out.write(answer.out);
        io.err.write(answer.err);
        return answer.code;
      }
    }
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    exitCode = report(err, io, env, controller.signal.aborted);
  } finally {
    await context?.dispose().catch(() => undefined);
    opts.interrupt?.removeEventListener('abort', onInterrupt);
  }
  return exitCode;
}

/**
 * The words after `help` when the command line is `help WORDS...` once the program's own options
 * (the global ones and the option sets: --no-color, --profile x, --format=json, -q) are set
 * aside, as commander would read them. Undefined for anything else, `help` alone, an option the
 * program does not know, `--help`, `--version`, or `--` (commander answers those as before).
 */
function helpCommandWords(
  argv: string[],
  program: { options: readonly { long?: string; short?: string; required: boolean; optional: boolean }[] },
): string[] | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') return undefined;
    if (arg.length < 2 || !arg.startsWith('-')) {
      words.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const name = long ? arg.split('=')[0] : arg.slice(0, 2);
    const option = program.options.find((o) => (long ? o.long === name : o.short === name));
    if (!option || ['--help', '-h', '--version', '-V'].includes(name ?? '')) return undefined;
    const attached = long ? arg.includes('=') : arg.length > 2;
    if (!option.required && !option.optional && attached) return undefined; // -qv and the like
    const next = argv[i + 1];
    if (!attached && (option.required || (option.optional && next !== undefined && !next.startsWith('-'))))
      i++;
  }
  return words[0] === 'help' && words.length > 1 ? words.slice(1) : undefined;
}

/** "meetings list" from commander's command chain (names, not aliases). */
function commandPath(command: { name(): string; parent: unknown }): string {
  const words: string[] = [];
  for (let c: { name(): string; parent: unknown } | null = command; c?.parent; c = c.parent as typeof c) {
    words.unshift(c.name());
  }
  return words.join(' ');
}

function report(err: unknown, io: IOStreams, env: Env, aborted: boolean): number {
  if (err instanceof CommanderError) {
    // Commander already printed its message (with a suggestion for a mistyped command).
    if (
      err.code === 'commander.helpDisplayed' ||
      err.code === 'commander.version' ||
      err.code === 'commander.help'
    ) {
      return ExitCode.ok;
    }
    return ExitCode.usage;
  }
  if (aborted || err instanceof InterruptedError) {
    io.err.write('Interrupted.\n');
    return ExitCode.interrupted;
  }
  if (err instanceof MtgError) {
    // Messages and details may carry server text (an error envelope): never raw to the terminal.
    // An operation's error names its arguments as the CLI spells them: flags.
    const message = err instanceof WordedError ? err.worded(flagName) : err.message;
    io.err.write(`mtg: ${sanitizeForTerminal(message)}\n`);
    for (const line of err.details) io.err.write(`  ${sanitizeOneLine(line)}\n`);
    return err.exitCode;
  }
  // The machine's file system said no (read-only folder, full disk): not a bug, no stack.
  const system = systemErrorLine(err);
  // Unexpected: a bug. Say so plainly; the stack only under MTG_DEBUG.
  const message = err instanceof Error ? err.message : String(err);
  io.err.write(`mtg: ${sanitizeForTerminal(system ?? `unexpected error: ${message}`)}\n`);
  if (env.MTG_DEBUG && err instanceof Error && err.stack) io.err.write(`${err.stack}\n`);
  return exitCodeOf(err);
}
