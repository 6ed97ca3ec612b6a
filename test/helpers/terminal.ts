// Runs the built CLI on a pseudo-terminal with util-linux `script`, so that stdout and stderr are
// TTYs as in an interactive shell. What the terminal showed (both streams, escape codes and all)
// comes back as `screen`; stdout can be sent to a file instead to keep data apart from progress.
import { spawn } from 'node:child_process';
import { cliEnv, mtgCommand } from './cli.js';

export interface TerminalResult {
  code: number | null;
  /** Everything written to the terminal. */
  screen: string;
}

export interface TerminalOptions {
  env?: Record<string, string | undefined>;
  /** Redirect the CLI's stdout to this file (stderr stays on the terminal). */
  stdoutFile?: string;
  timeoutMs?: number;
  /** Size the pseudo-terminal to this many columns (stty) before the command runs. */
  columns?: number;
  /** Type `keys` on the terminal once the screen shows `after` (a prompt). */
  type?: { after: string; keys: string };
}

const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export function runInTerminal(args: string[], options: TerminalOptions = {}): Promise<TerminalResult> {
  const mtg = mtgCommand(args);
  const command = [mtg.command, ...mtg.args].map(shellQuote).join(' ');
  const redirect = options.stdoutFile ? ` > ${shellQuote(options.stdoutFile)}` : '';
  const size = options.columns ? `stty cols ${options.columns} rows 50; ` : '';
  // A clean environment: no CI (ora would not animate), no color settings unless the test sets them.
  const env = cliEnv({ TERM: 'xterm-256color', ...options.env });
  return new Promise((resolve, reject) => {
    // -q: no start/done lines, -f: flush as written, -e: the command's exit code, -c: the command.
    const child = spawn('script', ['-qfec', size + command + redirect, '/dev/null'], {
      env,
      stdio: [options.type ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    let screen = '';
    let typed = false;
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      screen += d;
      // `script` passes what it reads on its stdin to the terminal, as keys typed there.
      if (options.type && !typed && screen.includes(options.type.after)) {
        typed = true;
        child.stdin?.write(options.type.keys);
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      screen += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}
