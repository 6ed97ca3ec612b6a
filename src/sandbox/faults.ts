// Injected faults (`500:0.05,reset:0.02,stall:0.01`): one draw per request from a stream seeded by
// the sandbox seed, in arrival order, so a run with the same seed and request order fails the same way.
import { mulberry32, type Rng, subSeed } from './prng.js';

export type FaultKind = '500' | 'reset' | 'stall';
export interface FaultRate {
  kind: FaultKind;
  probability: number;
}

const KINDS: readonly FaultKind[] = ['500', 'reset', 'stall'];

/** Throws a one-line Error on bad input; "" or "none" means no faults. */
export function parseFaults(spec: string): FaultRate[] {
  const trimmed = spec.trim();
  if (trimmed === '' || trimmed.toLowerCase() === 'none') return [];
  const out: FaultRate[] = [];
  for (const part of trimmed.split(',')) {
    const [kind, p, extra] = part.trim().split(':');
    const probability = Number(p);
    if (extra !== undefined || !KINDS.includes(kind as FaultKind) || p === undefined || p.trim() === '') {
      throw new Error(
        `invalid fault "${part.trim()}": expected KIND:PROBABILITY with KIND one of ${KINDS.join(', ')}`,
      );
    }
    if (!Number.isFinite(probability) || probability < 0 || probability > 1) {
      throw new Error(`invalid fault "${part.trim()}": probability must be a number from 0 to 1`);
    }
    if (out.some((f) => f.kind === kind)) throw new Error(`invalid faults: "${kind}" given twice`);
    out.push({ kind: kind as FaultKind, probability });
  }
  const total = out.reduce((sum, f) => sum + f.probability, 0);
  if (total > 1 + 1e-9) throw new Error(`invalid faults: probabilities add up to ${total}, more than 1`);
  return out;
}

export class FaultPicker {
  private readonly rng: Rng;

  constructor(
    private readonly rates: readonly FaultRate[],
    seed: number,
  ) {
    this.rng = mulberry32(subSeed(seed, 99));
  }

  /** Draws for one request; undefined means answer normally. */
  next(): FaultKind | undefined {
    if (this.rates.length === 0) return undefined;
    const r = this.rng.next();
    let acc = 0;
    for (const f of this.rates) {
      acc += f.probability;
      if (r < acc) return f.kind;
    }
    return undefined;
  }
}
