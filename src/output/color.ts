// Color is decided once, explicitly, by the caller; chalk's own global auto-detection is never
// used so that output to files and pipes is byte-for-byte free of escape codes.
import { Chalk, type ChalkInstance } from 'chalk';

export interface ColorInput {
  stream: { isTTY?: boolean };
  noColorFlag?: boolean;
  env?: Record<string, string | undefined>;
}

/**
 * Order: --no-color, then NO_COLOR (non-empty, per no-color.org), then FORCE_COLOR (any value
 * but "0"/"false", as Node reads it), then TERM=dumb, then whether the stream is a TTY.
 */
export function colorEnabled({ stream, noColorFlag = false, env = process.env }: ColorInput): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** A chalk instance that colors (basic 16 colors: all the table needs) only when `enabled`. */
export function createChalk(enabled: boolean): ChalkInstance {
  return new Chalk({ level: enabled ? 1 : 0 });
}
