// What bench/search-quality.mjs (through the real sync and `mtg find`) and bench/search-tune.mjs (the
// engine's functions in-process, for tuning) share: the QMSum corpus served by `mtg sandbox --data`,
// and the figures of a split's questions and of the keyword queries.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const QMSUM = join(ROOT, '..', 'shared', 'bench', 'qmsum');
export const CORPUS = join(QMSUM, 'corpus.json.gz');
export const LIMIT = 10;
/** QMSum gives no times: entry i of a transcript is at i x 15 s (corpus README). */
const SECONDS_PER_ENTRY = 15;
/** Keyword queries whose precision must hold: topics of the AMI and ICSI meetings, and a speaker. */
export const KEYWORD_QUERIES = [
  'remote control',
  'budget',
  'scroll wheel',
  'speech recognition',
  'Project Manager',
];

/** The questions of a split (train or val; the test split is held out). */
export function questionsOf(split) {
  return JSON.parse(readFileSync(join(QMSUM, `queries-${split}.json`), 'utf8'));
}

/** Starts `mtg sandbox --data CORPUS --json`; resolves with its line and a stop(). Bounded wait. */
export function startSandbox(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'bin', 'mtg.js'),
        'sandbox',
        '--data',
        CORPUS,
        '--json',
        '--limits',
        'none',
        '--page-size',
        '100',
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`mtg sandbox printed no line in 60 s: ${err}`));
    }, 60_000);
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
    });
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      const info = JSON.parse(out.slice(0, nl));
      const stopped = new Promise((r) => child.once('close', r));
      const stop = () => {
        child.kill('SIGTERM');
        return stopped;
      };
      resolve({ ...info, stop });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`mtg sandbox exited ${code}: ${err.trim()}`));
    });
  });
}

/**
 * The corpus synced into the data folder of `env` by the CLI's run (from bench/bundle.mjs's
 * loadCli): `mtg sandbox --data` in a process of its own, then `mtg sync`. Returns the seconds the
 * sync took.
 */
export async function syncCorpus(cli, env) {
  const sandbox = await startSandbox(env);
  try {
    const io = cli.testIO({});
    const started = performance.now();
    const code = await cli.run(['sync', '--json'], io, {
      ...env,
      MTG_BASE_URL: sandbox.baseUrl,
      MTG_API_KEY: sandbox.apiKey,
    });
    if (code !== 0) throw new Error(`mtg sync exited ${code}: ${io.stderr()}`);
    return (performance.now() - started) / 1000;
  } finally {
    await sandbox.stop();
  }
}

export const pct = (n, d) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor((s.length - 1) / 2)];
};

const inSpan = (hit, spans) =>
  typeof hit.timestamp === 'number' &&
  spans.some(
    ([first, last]) =>
      first * SECONDS_PER_ENTRY <= hit.timestamp &&
      hit.timestamp <= last * SECONDS_PER_ENTRY + SECONDS_PER_ENTRY - 1,
  );

/**
 * The figures of `questions`, each asked through `ask(query)` → {code, hits, ms, stderr} (hits as
 * `find --json` prints them; code 0 unless find refused).
 */
export async function questionFigures(ask, questions) {
  const f = {
    n: questions.length,
    at1: 0,
    at10: 0,
    rr: 0,
    span: 0,
    noHit: 0,
    refused: 0,
    ms: [],
    firstRefusal: '',
  };
  for (const q of questions) {
    const r = await ask(q.query);
    f.ms.push(r.ms);
    if (r.code !== 0) {
      f.refused++;
      f.firstRefusal ||= `${q.query} -> exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`;
    }
    if (r.hits.length === 0) f.noHit++;
    const first = r.hits.findIndex((h) => h.meetingId === q.meetingId);
    if (first === 0) f.at1++;
    if (first >= 0) {
      f.at10++;
      f.rr += 1 / (first + 1);
    }
    if (r.hits.some((h) => h.meetingId === q.meetingId && inSpan(h, q.spans))) f.span++;
  }
  return f;
}

export const QUESTION_HEADER = [
  '| split | questions | meeting@1 | meeting@10 | MRR | span@10 | no hit | refused | median ms/question |',
  '|---|---|---|---|---|---|---|---|---|',
];

export const questionRow = (split, f) =>
  `| ${split} | ${f.n} | ${pct(f.at1, f.n)} | ${pct(f.at10, f.n)} | ${(f.rr / f.n).toFixed(3)} | ${pct(f.span, f.n)} | ${pct(f.noHit, f.n)} | ${pct(f.refused, f.n)} | ${median(f.ms).toFixed(1)} |`;

/** A hit shows a word when its speaker, meeting name or snippet has a word starting with it. */
function showsEveryWord(hit, words) {
  const text =
    `${hit.speaker ?? ''} ${hit.meetingName ?? ''} ${String(hit.snippet ?? '').replaceAll('**', '')}`.toLowerCase();
  return words.every((w) =>
    new RegExp(`(^|[^\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u').test(text),
  );
}

/** The keyword queries' table rows: hits, the share of the first 10 showing every word, median ms. */
export async function keywordRows(ask, runs) {
  const out = [
    '| keyword query | hits | of the first 10, showing every word | median ms |',
    '|---|---|---|---|',
  ];
  for (const query of KEYWORD_QUERIES) {
    const words = query.toLowerCase().split(/\s+/);
    const times = [];
    let r;
    for (let i = 0; i < runs; i++) {
      r = await ask(query);
      times.push(r.ms);
    }
    const shown = r.hits.filter((h) => showsEveryWord(h, words)).length;
    out.push(
      `| \`${query}\` | ${r.hits.length} | ${pct(shown, r.hits.length)} | ${median(times).toFixed(1)} |`,
    );
  }
  return out;
}
