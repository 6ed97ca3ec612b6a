// Work that must happen even when the process exits without unwinding (a second Ctrl-C, an
// uncaught error): the entry (src/cli/bin.ts) runs these, synchronously, on the process's 'exit'.
// Kept here, apart from the entry, so the modules that register hooks need not import it.
import { removeUnfinishedTemps } from '../shared/atomic-file.js';

// Temp files of atomic writes still under way (-o, --checkpoint, config, export): never left behind.
export const exitHooks = new Set<() => void>([removeUnfinishedTemps]);

export function runExitHooks(): void {
  for (const hook of exitHooks) {
    try {
      hook();
    } catch {
      // Best effort: the process is going away.
    }
  }
}
