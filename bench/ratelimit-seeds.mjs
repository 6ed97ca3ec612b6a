// `node bench/ratelimit-seeds.mjs [first-last] [filter]`: every shape of bench/ratelimit-sim.ts on
// each seed (default 1-8), one line per shape: per seed, throughput % and 429s per 1,000 (ours / of
// all the mtg clients: ours, a second client's, a companion's). For before/after comparisons of the
// limiter (bench/README.md's limiter section); `filter` keeps the shapes whose name contains it.
// About a minute and a half for seeds 1-8; BENCH_QUICK=1 runs seed 1 only.
import { loadSourceModule } from './bundle.mjs';

const [first, last] = (process.argv[2] ?? (process.env.BENCH_QUICK ? '1' : '1-8')).split('-').map(Number);
const filter = process.argv[3] ?? '';
const { SHAPES, simulate } = await loadSourceModule('bench/ratelimit-sim.ts');
for (const shape of SHAPES.filter((s) => s.name.includes(filter))) {
  const cells = [];
  let met = 0;
  for (let seed = first; seed <= (last ?? first); seed++) {
    const o = await simulate(shape, seed);
    const ours = (o.refused / (o.requests - o.theirs)) * 1000;
    cells.push(`${(o.throughput * 100).toFixed(2)} ${ours.toFixed(1)}/${o.per1000.toFixed(1)}`);
    if (o.throughput >= 0.95 && o.per1000 <= 5) met++;
  }
  process.stdout.write(`| ${shape.name} | ${cells.join(' | ')} | ${met} |\n`);
}
