// Color is decided once per run, explicitly (io.color, src/cli/io.ts); chalk's own global
// auto-detection is never used so that output to files and pipes is byte-for-byte free of escape codes.
import { Chalk, type ChalkInstance } from 'chalk';

/** A chalk instance that colors (basic 16 colors: all the table needs) only when `enabled`. */
export function createChalk(enabled: boolean): ChalkInstance {
  return new Chalk({ level: enabled ? 1 : 0 });
}
