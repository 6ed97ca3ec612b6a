// `mtg watch --exec CMD`: CMD runs through `sh -c` once per event, the event's JSON on its stdin and
// MTG_EVENT_* in its environment. Its stdout goes to our stderr (stdout carries only events); the
// tail of its stderr is kept for the report when it fails. A run is bounded: past the timeout its
// process group gets SIGTERM, then SIGKILL, so a hung hook cannot stall the watch.

import { spawn } from 'node:child_process';
import type { ChangeEvent } from './changes.js';

export interface HookResult {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** The last part of its stderr. */
  stderrTail: string;
}

export interface HookOptions {
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Where its stdout goes (our stderr). */
  stdoutFd?: number;
  /** Aborting stops the command (SIGTERM to its group). */
  signal?: AbortSignal;
}

const TAIL_BYTES = 2000;
const KILL_GRACE_MS = 5000;

/**
 * The MTG_EVENT_* variables of an event. An environment variable cannot hold a NUL (spawn refuses
 * the whole command), and an ID is server text: each NUL is written as the two characters \0. The
 * event's JSON on stdin keeps the ID exact.
 */
export function eventEnv(event: ChangeEvent, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    MTG_EVENT_SEQ: String(event.seq),
    MTG_EVENT_CHANGE: event.change,
    MTG_EVENT_RESOURCE: event.resource,
    MTG_EVENT_ID: String(event.id),
    ...extra,
  };
  for (const [name, value] of Object.entries(env)) env[name] = value.replaceAll('\0', '\\0');
  return env;
}

export function runHook(command: string, input: string, options: HookOptions): Promise<HookResult> {
  return new Promise((resolve, reject) => {
    // Its own process group: a timeout or Ctrl-C stops the whole pipeline CMD may start.
    const child = spawn('sh', ['-c', command], {
      env: options.env,
      stdio: ['pipe', options.stdoutFd ?? 2, 'pipe'],
      detached: true,
    });
    let tail = '';
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const kill = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        // already gone
      }
    };
    const stop = () => {
      kill('SIGTERM');
      killTimer ??= setTimeout(() => kill('SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', stop, { once: true });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      tail = (tail + d).slice(-TAIL_BYTES);
    });
    // A command that does not read its stdin closes the pipe early: that is not a failure.
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(input);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', stop);
      resolve({ code, signal, timedOut, stderrTail: tail });
    });
  });
}
