// A tiny seeded PRNG (mulberry32): the same seed gives the same data on every machine and Node version,
// which Math.random cannot promise.

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct items (fewer when the list is shorter), in list order. */
  sample<T>(items: readonly T[], count: number): T[];
  hex(length: number): string;
}

export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(0, items.length - 1)] as T;
    },
    sample: <T>(items: readonly T[], count: number): T[] => {
      // Selection sampling: one pass, order kept, bounded by the list length.
      const out: T[] = [];
      let needed = Math.min(count, items.length);
      for (let i = 0; i < items.length && needed > 0; i++) {
        if (next() * (items.length - i) < needed) {
          out.push(items[i] as T);
          needed--;
        }
      }
      return out;
    },
    hex: (length) => {
      let s = '';
      while (s.length < length) s += Math.floor(next() * 16).toString(16);
      return s;
    },
  };
}

/** Derives an independent stream from a seed, so adding draws to one stream never shifts another. */
export function subSeed(seed: number, stream: number): number {
  return (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca77)) >>> 0;
}
