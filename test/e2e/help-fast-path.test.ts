import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { commandTree } from '../../src/commands/index.js';
import { BIN, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let written = '';
const program = buildProgram(commandTree, '0.0.0-test', async () => undefined, {
  writeOut: (s) => {
    written += s;
  },
  writeErr: (s) => {
    written += s;
  },
});

function commanderHelp(cmd: Command): string {
  written = '';
  cmd.outputHelp();
  return written;
}

/** Every way to spell every command path (names and aliases), with commander's help for it. */
function allPaths(cmd: Command, prefixes: string[][] = [[]]): { words: string[]; help: string }[] {
  const help = commanderHelp(cmd);
  const here = prefixes.map((words) => ({ words, help }));
  return here.concat(
    cmd.commands.flatMap((sub) =>
      allPaths(
        sub,
        prefixes.flatMap((p) => [sub.name(), ...sub.aliases()].map((n) => [...p, n])),
      ),
    ),
  );
}

const paths = allPaths(program);

/** Runs `runs` at most `width` at a time (each spawns a CLI). */
async function pooled<T>(items: T[], width: number, run: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item);
    }),
  );
}

describe('pre-rendered help (fast path)', () => {
  it('covers aliases: more spellings than commands', () => {
    expect(paths.length).toBeGreaterThan(new Set(paths.map((p) => p.help)).size);
    expect(paths.some((p) => p.words.join(' ') === 'meeting ls')).toBe(true);
  });

  it('prints, for every command path and alias, exactly what commander prints', async () => {
    const mismatches: string[] = [];
    await pooled(paths, 4, async ({ words, help }) => {
      const r = await runCli([...words, '--help']);
      if (r.code !== 0 || r.stdout !== help || r.stderr !== '') mismatches.push(words.join(' ') || '(root)');
    });
    expect(mismatches).toEqual([]);
  });

  it('-h is the same as --help', async () => {
    for (const words of [[], ['action-items'], ['action-items', 'list'], ['meeting', 'ls']]) {
      const expected = paths.find((p) => p.words.join(' ') === words.join(' '))!.help;
      const r = await runCli([...words, '-h']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(expected);
    }
  });

  it('`mtg` alone prints commander helpInformation() of the root, like main.ts', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(program.helpInformation());
  });

  it('the built CLI prints the same bytes through commander (MTG_NO_HELP_CACHE=1)', async () => {
    const samples = [[], ['--help'], ['action-items', '--help'], ['action-items', 'list', '--help']];
    samples.push(['meeting', 'ls', '-h'], ['sandbox', '--help']);
    await pooled(samples, 2, async (args) => {
      const [fast, normal] = await Promise.all([
        runCli(args),
        runCli(args, { env: { MTG_NO_HELP_CACHE: '1' } }),
      ]);
      expect(normal.code, args.join(' ')).toBe(0);
      expect(fast.code, args.join(' ')).toBe(0);
      expect(fast.stdout, args.join(' ')).toBe(normal.stdout);
    });
  });

  it('help with another argument still goes through commander', async () => {
    const list = paths.find((p) => p.words.join(' ') === 'action-items list')!.help;
    const r = await runCli(['action-items', 'list', '--help', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(list);
  });

  it('command lines it does not know are left to commander, which answers them as before', async () => {
    const cases = [
      ['action-items', 'list', '--json', '--help'],
      ['--json', '--help'],
      ['action-items list', '--help'],
      ['constructor', '--help'],
      ['action-items', 'nope', '--help'],
      ['help', 'action-items'],
    ];
    await pooled(cases, 2, async (args) => {
      const [fast, normal] = await Promise.all([
        runCli(args),
        runCli(args, { env: { MTG_NO_HELP_CACHE: '1' } }),
      ]);
      expect({ code: fast.code, stdout: fast.stdout, stderr: fast.stderr }, args.join(' ')).toEqual({
        code: normal.code,
        stdout: normal.stdout,
        stderr: normal.stderr,
      });
    });
  });
});

describe('pre-rendered help: a missing or broken dist/help.json', () => {
  // A private copy of the built CLI (bin/ and dist/), so the shared dist/ is left alone.
  const root = tempDir('mtg-help-copy-');
  cpSync(join(BIN, '..'), join(root, 'bin'), { recursive: true });
  cpSync(join(BIN, '..', '..', 'dist'), join(root, 'dist'), { recursive: true });

  const runCopy = async (args: string[]) => {
    const r = await runCli(args, { bin: join(root, 'bin', 'mtg.js'), env: { MTG_CONFIG_DIR: root } });
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  };
  const listHelp = () => paths.find((p) => p.words.join(' ') === 'action-items list')!.help;

  it('falls back to commander silently when the file is unreadable JSON', async () => {
    writeFileSync(join(root, 'dist', 'help.json'), '{ not json');
    expect(await runCopy(['action-items', 'list', '--help'])).toBe(listHelp());
  });

  it('falls back to commander silently when the file is missing', async () => {
    rmSync(join(root, 'dist', 'help.json'), { force: true });
    expect(await runCopy(['action-items', 'list', '--help'])).toBe(listHelp());
  });
});
