// Whether a process that wrote a lock or a log is still running, for the files processes of one
// user share (the mirror's sync lock, the rate-limit logs). Its process ID only means something on
// this machine: a data folder on a network share seen from several hosts is not supported.

import { readFileSync } from 'node:fs';

/** True while `pid` runs and, on Linux, is a node or mtg process (a PID reused by another program is not the writer). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else (still a live holder).
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (process.platform === 'linux') {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      return /mtg|node/.test(cmdline);
    } catch {
      return true;
    }
  }
  return true;
}
