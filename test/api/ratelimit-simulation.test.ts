// Pacing judged by simulation (bench/ratelimit-sim.ts): clients with mtg's rate limiter against the
// sandbox's own windows, on a virtual clock. Targets per shape (issue #31): at least 95% of the rate
// the windows allow at best, and at most 5 refusals (429) per 1,000 requests.
import { describe, expect, it } from 'vitest';
import { SHAPES, simulate } from '../../bench/ratelimit-sim.js';

describe('the rate limiter against the sandbox windows (simulated)', () => {
  for (const shape of SHAPES) {
    it(shape.name, async () => {
      const outcome = await simulate(shape);
      expect({ shape: outcome.shape, throughput: outcome.throughput >= 0.95, per1000: outcome.per1000 <= 5 }).toEqual({
        shape: shape.name,
        throughput: true,
        per1000: true,
      });
    });
  }
});
