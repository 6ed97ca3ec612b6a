// What a test (and bench/sql-stop.mjs) sees of a process it started and of that process's own
// children (Linux: /proc), for what must know a child process is gone, not only that its own child exited.
import { readFileSync } from 'node:fs';

/** A process's children. */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Running (a zombie waiting for its reaper counts as ended). */
export function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** CPU seconds a process has used (utime + stime of /proc/PID/stat, in ticks of 1/100 s). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** `exit`, or an error naming `what` if it has not settled within `ms` (a process that ignored being told to end). */
export function within<T>(exit: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    exit,
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what} had not ended ${ms / 1000} s after it was told to`)),
        ms,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}
