// `node bench/sanitize.mjs`: the terminal sanitizer (src/shared/sanitize.ts) on hostile text, issue 29.
// Each case is one string of about 1 MB (one transcript entry, say) built to defeat a sanitizer:
// lone 8-bit introducers (U+009D: each starts an OSC that never ends), lone 7-bit ones, CSI
// parameters without a final byte, bidi overrides and zero-width characters, and a mix. Beside
// it, a quarter of the same text: a linear sanitizer takes about four times as long on the whole
// (the ratio of CPU times; less when a fixed cost weighs), a quadratic one sixteen times. Target:
// every 1 MB case under 100 ms (wall; CPU time printed beside it, the steadier figure on a loaded
// machine). Prints figures and never fails on a missed target. BENCH_QUICK=1: one run of each (a
// smoke test, not figures to quote).
//
// The module is bundled from src/ with esbuild (bench/bundle.mjs), so no build is needed.

import { loadSourceModule } from './bundle.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const RUNS = QUICK ? 1 : 7;
const MB = 1 << 20;
const TARGET_MS = 100;

const { sanitizeForTerminal } = await loadSourceModule('src/shared/sanitize.ts');

/** `unit` repeated to `chars` characters. */
const fill = (unit, chars) => unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);

const CASES = [
  ['U+009D (8-bit OSC) alone, repeated', (n) => fill('\u009d', n)],
  ['ESC ] (7-bit OSC) repeated', (n) => fill('\u001b]', n)],
  ['8-bit OSC + text, never terminated', (n) => fill('\u009dab', n)],
  ['OSC ended by ESC without backslash', (n) => fill('\u001b]x\u001b', n)],
  ['CSI parameters, no final byte', (n) => `\u009b${fill('0;', n - 2)}\u0001`],
  ['bidi overrides and zero-width', (n) => fill('Pay \u202eevil\u202c \u200binvoice ', n)],
  [
    'mixed controls and text',
    (n) => fill('a\u001b[31mb\u009b\u0007\u009d0;t\u009cc\u001b]8;;x\u0007 \r\u200f', n),
  ],
  ['plain text (the common case)', (n) => fill('Quarterly roadmap review with the team. ', n)],
];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median wall and CPU (user + system) milliseconds of sanitizing `input`; CPU is the steadier on a loaded machine. */
function timeMs(input) {
  const wall = [];
  const cpu = [];
  let out = '';
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    out = sanitizeForTerminal(input);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { ms: median(wall), cpu: median(cpu), out };
}

const rows = [];
for (const [name, make] of CASES) {
  const quarter = timeMs(make(MB / 4));
  const whole = timeMs(make(MB));
  rows.push({
    case: name,
    '256 KB ms': quarter.ms.toFixed(1),
    '1 MB ms': whole.ms.toFixed(1),
    '1 MB CPU ms': whole.cpu.toFixed(1),
    ratio: (whole.cpu / Math.max(quarter.cpu, 0.01)).toFixed(1),
    'kept chars': whole.out.length,
    met: whole.ms < TARGET_MS ? 'yes' : 'NO',
  });
}

console.log(`Terminal sanitizer on 1 MB of hostile text (median of ${RUNS}; target < ${TARGET_MS} ms each)`);
console.table(rows);
