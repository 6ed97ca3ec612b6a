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

/** BENCH_QUICK=1: CI's smoke run (the validation split only). */
export const QUICK = process.env.BENCH_QUICK === '1';

/**
 * The command line both QMSum benches share: `--split train|val|both` (default both; BENCH_QUICK:
 * val), `option(name)` for an option's value and `flag(name)`. A bad split: one line, exit 2.
 */
export function benchArgs(bench, argv = process.argv.slice(2)) {
  const option = (name) => {
    const i = argv.indexOf(name);
    return i < 0 ? undefined : argv[i + 1];
  };
  const split = option('--split') ?? (QUICK ? 'val' : 'both');
  if (split !== 'train' && split !== 'val' && split !== 'both') {
    process.stderr.write(`${bench}: --split takes train, val or both (the test split is held out)\n`);
    process.exit(2);
  }
  return {
    argv,
    option,
    flag: (name) => argv.includes(name),
    splits: split === 'both' ? ['train', 'val'] : [split],
  };
}

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
async function questionFigures(ask, questions) {
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

const QUESTION_HEADER = [
  '| split | questions | meeting@1 | meeting@10 | MRR | span@10 | no hit | refused | median ms/question |',
  '|---|---|---|---|---|---|---|---|---|',
];

const questionRow = (split, f) =>
  `| ${split} | ${f.n} | ${pct(f.at1, f.n)} | ${pct(f.at10, f.n)} | ${(f.rr / f.n).toFixed(3)} | ${pct(f.span, f.n)} | ${pct(f.noHit, f.n)} | ${pct(f.refused, f.n)} | ${median(f.ms).toFixed(1)} |`;

/** AMI meeting names: ES2004a, IS1000a, TS3003a; ICSI: Bed003, Bmr001, Bro004, Btr001, Bns001, Bsr001. */
const corpusOf = (name) =>
  /^(ES|IS|TS|EN)\d{4}[a-d]$/.test(name) ? 'AMI' : /^B[a-z]{2}\d{3}$/.test(name) ? 'ICSI' : 'committee';

/**
 * The question table of `splits` (header and a row per split; `every`: every Nth question;
 * `byCorpus`: a row per AMI / ICSI / committee too) and a line per split that find refused.
 */
export async function questionTable(ask, splits, { every = 1, byCorpus = false } = {}) {
  const lines = [...QUESTION_HEADER];
  const refusals = [];
  for (const split of splits) {
    const questions = questionsOf(split).filter((_, i) => i % every === 0);
    const f = await questionFigures(ask, questions);
    lines.push(questionRow(every > 1 ? `${split}/${every}` : split, f));
    if (f.firstRefusal) refusals.push(`refused (${split}, e.g.: ${f.firstRefusal})`);
    if (byCorpus)
      for (const c of ['AMI', 'ICSI', 'committee'])
        lines.push(
          questionRow(
            `${split} ${c}`,
            await questionFigures(
              ask,
              questions.filter((q) => corpusOf(q.meeting) === c),
            ),
          ),
        );
  }
  return { lines, refusals };
}

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
