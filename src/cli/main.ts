// Entry point of the bundle. Parses the command line, runs the command with a Context, maps errors
// to the contract's exit codes, and turns Ctrl-C into a clean stop (exit 130, output well-formed).

import { setMaxListeners } from 'node:events';
import { CommanderError } from 'commander';
import { ExitCode, exitCodeOf, InterruptedError, MtgError } from '../api/errors.js';
import { commandTree } from '../commands/index.js';
import { sanitizeForTerminal, sanitizeOneLine } from '../output/sanitize.js';
import { Context, type IO, VERSION } from './context.js';
import { parseGlobals } from './globals.js';
import { buildProgram } from './program.js';

export async function main(argv: string[], io: IO, env: NodeJS.ProcessEnv): Promise<number> {
  const controller = new AbortController();
  // Every in-flight request and every rate-limit wait listens to this signal, and a batch has up to
  // 8 of each at once (src/cli/bulk.ts): past node's default of 10, `action-items update` of 60 IDs
  // printed a MaxListenersExceededWarning. Listeners are removed as each request settles.
  setMaxListeners(64, controller.signal);
  let exitCode: number = ExitCode.ok;
  let context: Context | undefined;

  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(ExitCode.interrupted); // second Ctrl-C: now
    controller.abort(new InterruptedError());
    if (signal === 'SIGTERM') exitCode = ExitCode.interrupted;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const program = buildProgram(
    commandTree,
    VERSION,
    async (spec, args, opts, command) => {
      const globals = parseGlobals(command.optsWithGlobals());
      context = new Context(globals, io, env, controller.signal);
      context.commandPath = commandPath(command);
      // A bad expression is exit 2 before the command sends anything.
      if (globals.jq !== undefined) await (await import('./jq.js')).installJq(globals.jq);
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
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    },
  );

  try {
    if (argv.length === 0) {
      io.stdout.write(program.helpInformation());
      return ExitCode.ok;
    }
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    exitCode = report(err, io, controller.signal.aborted);
  } finally {
    await context?.dispose().catch(() => undefined);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return exitCode;
}

/** "meetings list" from commander's command chain (names, not aliases). */
function commandPath(command: { name(): string; parent: unknown }): string {
  const words: string[] = [];
  for (let c: { name(): string; parent: unknown } | null = command; c?.parent; c = c.parent as typeof c) {
    words.unshift(c.name());
  }
  return words.join(' ');
}

function report(err: unknown, io: IO, aborted: boolean): number {
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
    io.stderr.write('Interrupted.\n');
    return ExitCode.interrupted;
  }
  if (err instanceof MtgError) {
    // Messages and details may carry server text (an error envelope): never raw to the terminal.
    io.stderr.write(`mtg: ${sanitizeForTerminal(err.message)}\n`);
    for (const line of err.details) io.stderr.write(`  ${sanitizeOneLine(line)}\n`);
    return err.exitCode;
  }
  // Unexpected: a bug. Say so plainly; the stack only under MTG_DEBUG.
  const message = err instanceof Error ? err.message : String(err);
  io.stderr.write(`mtg: unexpected error: ${sanitizeForTerminal(message)}\n`);
  if (process.env.MTG_DEBUG && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
  return exitCodeOf(err);
}

// `mtg ... | head` closes our stdout early: that is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(ExitCode.ok);
});

const code = await main(
  process.argv.slice(2),
  { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin },
  process.env,
);
// Let stdout drain before exiting (a pipe may still hold data).
process.exitCode = code;
if (process.stdout.writableLength === 0) process.exit(code);
else process.stdout.once('drain', () => process.exit(code));
