// A secret (the API key) from stdin: everything piped in, or typed at a hidden prompt on a terminal.
//
// Our own 25 lines rather than a library: `read` (npm's, with mute-stream) took about 20 ms to load
// and @inquirer/password about 87 ms with 13 packages (median of 9 cold imports each, on this
// project's 2-core test machine), where this prompt needs raw mode, no echo, backspace, Enter and
// Ctrl-C only; neither spares the raw-mode handling for the piped case we keep anyway.
import { InterruptedError } from '../shared/errors.js';
import type { IOStreams } from './io.js';

type RawInput = NodeJS.ReadableStream & { setRawMode(mode: boolean): unknown };

/**
 * The secret, trimmed; the prompt goes to stderr, nothing typed is echoed. Ctrl-C (a keystroke in
 * raw mode, or SIGINT through `signal`) is an interruption: exit 130, as everywhere else.
 */
export async function readSecret(io: IOStreams, prompt: string, signal?: AbortSignal): Promise<string> {
  const stdin = io.in;
  if (!io.inIsTTY) {
    let text = '';
    stdin.setEncoding('utf8');
    for await (const chunk of stdin) text += chunk;
    return text.trim();
  }
  // A hidden prompt: read raw keystrokes without echoing them.
  io.err.write(prompt);
  const tty = stdin as RawInput;
  tty.setRawMode(true);
  tty.resume();
  tty.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let key = '';
    const done = (err?: Error) => {
      tty.setRawMode(false);
      tty.pause();
      tty.off('data', onData);
      signal?.removeEventListener('abort', onAbort);
      io.err.write('\n');
      if (err) reject(err);
      else resolve(key.trim());
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new InterruptedError());
        if (ch === '\u007f' || ch === '\b') key = key.slice(0, -1);
        else key += ch;
      }
    };
    const onAbort = () => done(new InterruptedError());
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort);
    tty.on('data', onData);
  });
}
