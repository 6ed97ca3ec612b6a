// Every example of the README and docs/ fenced as ```sh sandbox runs, against a sandbox of this
// test, so that the documentation cannot rot. The blocks of one file run in order, in one shell
// state (config, mirror and working folder of their own: `mtg sync` in one block serves the
// `--offline` of the next). A line of plain words runs in-process (run()); a line that needs a shell
// (a pipe, &&, a redirect, ~ or $) or writes a file runs in bash, `mtg` being the built CLI.
// Each must exit 0, and a line run in-process must print something (data, or a summary on stderr).
import { spawn } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { BIN, baseEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** The files whose ```sh sandbox blocks run: the README and the guides (docs/commands is generated). */
const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** The command lines of a file's ```sh sandbox blocks: continuations joined, comment lines dropped. */
function sandboxExamples(markdown: string): string[] {
  const lines: string[] = [];
  for (const [, body] of markdown.matchAll(/^```sh sandbox\n([\s\S]*?)^```$/gm)) {
    for (const line of (body ?? '').replace(/\\\n\s*/g, '').split('\n')) {
      if (line.trim() !== '' && !line.trim().startsWith('#')) lines.push(line.trim());
    }
  }
  return lines;
}

/** The words of a line of plain words (quotes allowed, a trailing # comment dropped); else undefined. */
function plainWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0) return undefined;
      const quoted = line.slice(i + 1, end);
      if (c === '"' && /[$`\\]/.test(quoted)) return undefined;
      word = (word ?? '') + quoted;
      i = end;
    } else if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) {
      break;
    } else if (/[|&;<>$`()~*?{}[\]\\]/.test(c)) {
      return undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * Lines that write files go to bash, in the file's own working folder; so do --jq lines (jq-web's
 * WebAssembly module does not load under vitest's module runner: the built CLI runs them).
 */
function needsBuiltCli(words: string[]): boolean {
  return (
    words.some(
      (w) => w === '-o' || w.startsWith('--output') || w.startsWith('--checkpoint') || w.startsWith('--jq'),
    ) || words[1] === 'export'
  );
}

function bash(line: string, env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -o pipefail; ${line}`], {
      env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let sandbox: Sandbox;
let binDir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none' });
  // `mtg` in bash lines: the built CLI of this checkout.
  binDir = tempDir('mtg-docs-bin-');
  writeFileSync(
    join(binDir, 'mtg'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
  );
  chmodSync(join(binDir, 'mtg'), 0o755);
});
afterAll(() => sandbox?.close());

describe('the ```sh sandbox examples of the documentation', () => {
  it('finds examples in the README and in the guides', () => {
    const counts = FILES.map((f) => sandboxExamples(readFileSync(join(ROOT, f), 'utf8')).length);
    expect(counts[0], 'README.md').toBeGreaterThan(0);
    expect(
      counts.slice(1).reduce((a, b) => a + b, 0),
      'docs/',
    ).toBeGreaterThan(0);
  });

  it('parses plain lines into words and leaves shell lines to bash', () => {
    expect(plainWords(`mtg find "budget review" --in 'notes' # note`)).toEqual([
      'mtg',
      'find',
      'budget review',
      '--in',
      'notes',
    ]);
    expect(plainWords('mtg sync && mtg find x')).toBeUndefined();
    expect(plainWords("mtg people list --jq '.[] | .email'")).toEqual([
      'mtg',
      'people',
      'list',
      '--jq',
      '.[] | .email',
    ]);
    expect(sandboxExamples('```sh sandbox\nmtg a \\\n  --b\n# c\n```\n```sh\nmtg d\n```\n')).toEqual([
      'mtg a --b',
    ]);
  });

  for (const file of FILES) {
    const lines = sandboxExamples(readFileSync(join(ROOT, file), 'utf8'));
    if (lines.length === 0) continue;
    it(`${file}: every example exits 0`, { timeout: 120_000 }, async () => {
      const home = tempDir('mtg-docs-home-');
      const env = {
        MTG_BASE_URL: sandbox.baseUrl,
        MTG_API_KEY: sandbox.apiKey,
        MTG_CONFIG_DIR: join(home, 'config'),
        MTG_DATA_DIR: join(home, 'data'),
        HOME: home,
        NO_COLOR: '1',
      };
      for (const line of lines) {
        const words = plainWords(line);
        if (words && words[0] === 'mtg' && !needsBuiltCli(words)) {
          const r = await runInProcess(words.slice(1), { env });
          expect(r.code, `${line}\n${r.stderr}`).toBe(0);
          expect(r.stdout + r.stderr, `${line} printed nothing`).not.toBe('');
        } else {
          const shellEnv = { ...baseEnv(), ...env, PATH: `${binDir}:${process.env.PATH}` } as Record<
            string,
            string
          >;
          const r = await bash(line, shellEnv, home);
          expect(r.code, `${line}\n${r.stderr}`).toBe(0);
        }
      }
    });
  }
});
