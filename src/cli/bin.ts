// The process entry, bundled as dist/cli.cjs (scripts/build.mjs; dist/mtg.cjs answers --version and
// help before loading it). The only module that touches `process`: it builds the IO from the real
// streams, turns SIGINT/SIGTERM into the interrupt run() listens to, treats a closed stdout pipe as
// the end, and exits once stdout has drained.
import { ExitCode } from '../shared/errors.js';
import { runExitHooks } from './exit-hooks.js';
import { systemIO } from './io.js';
import { run } from './main.js';

// `mtg ... | head` closes our stdout early: that is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(ExitCode.ok);
});
process.once('exit', runExitHooks);

const interrupt = new AbortController();
// Set once run() has returned: a signal then (while stdout drains) exits 130 at once, rather than
// being taken for a first Ctrl-C that nothing awaits. The listener stays registered for the whole
// process: swapping it for another (off, then on) left SIGINT at its default, killing, for the
// moment between, and a second Ctrl-C landing there ended the process by the signal.
let finished = false;
const onSignal = (signal: NodeJS.Signals) => {
  if (finished || interrupt.signal.aborted) process.exit(ExitCode.interrupted); // second Ctrl-C: now
  interrupt.abort(signal);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

// No top-level await: the build bundles this file as CommonJS too (scripts/build.mjs).
async function main(): Promise<void> {
  const code = await run(process.argv.slice(2), systemIO(process), process.env, {
    interrupt: interrupt.signal,
  });
  finished = true;
  // Let stdout drain before exiting (a pipe may still hold data).
  process.exitCode = code;
  if (process.stdout.writableLength === 0) process.exit(code);
  else process.stdout.once('drain', () => process.exit(code));
}

// A failure to run surfaces as an unhandled rejection, as it did as a top-level await.
void main();
