// Types of bench/theory.mjs, for the TypeScript that uses it (bench/ratelimit-sim.ts).
export interface Window {
  limit: number;
  windowMs: number;
}
export function parseWindows(spec: string): Window[];
export function dispatchTimes(count: number, windows: Window[], options?: { gapMs?: number }): number[];
export function minimumMs(
  count: number,
  windows: Window[],
  options?: { latencyMs?: number; sequential?: boolean },
): number;
