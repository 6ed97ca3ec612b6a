// Help for every command of the tree: a description, every option (with its default), and 1-3
// examples. Checked in-process on the commander program (fast); unknown commands through the CLI.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMON_OPTIONS, commonOptionsOf } from '../../../src/cli/globals.js';
import { buildProgram } from '../../../src/cli/program.js';
import { type CommandNode, isGroup, type OptionDecl } from '../../../src/cli/spec.js';
import { commandTree } from '../../../src/commands/index.js';
import { runInProcess } from '../../helpers/inprocess.js';

const program = buildProgram(commandTree, '0.0.0-test', async () => undefined, {
  writeOut: () => undefined,
  writeErr: () => undefined,
});

/** [words that reach the command, its spec] for every command of the tree. */
const commands: [string[], CommandNode][] = commandTree.flatMap((node) =>
  isGroup(node)
    ? node.commands.map((spec): [string[], CommandNode] => [[node.name, spec.name], spec])
    : [[[node.name], node]],
);

function commanderCommand(words: string[]): Command {
  let cmd: Command = program;
  for (const word of words) {
    const next = cmd.commands.find((c) => c.name() === word);
    if (!next) throw new Error(`no command ${words.join(' ')}`);
    cmd = next;
  }
  return cmd;
}

/** Help as a user sees it: commander's text plus the "after" text (the examples). */
function helpText(words: string[]): string {
  let text = '';
  const cmd = commanderCommand(words);
  cmd.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  cmd.outputHelp();
  return text;
}

function examplesOf(help: string): string[] {
  const section = help.split(/^Examples:$/m)[1] ?? '';
  return section.split('\n').filter((line) => line.startsWith('  $ '));
}

/** The option's line in help, with its wrapped continuation lines joined. */
function optionEntry(help: string, option: OptionDecl): string | undefined {
  const lines = help.split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith(option.flags));
  if (start < 0) return undefined;
  const entry = [lines[start]];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s{10,}\S/.test(line)) break;
    entry.push(line.trim());
  }
  return entry.join(' ').replace(/\s+/g, ' ');
}

describe('mtg <group> <command> --help', () => {
  it('walks a tree with commands in it', () => {
    expect(commands.length).toBeGreaterThan(3);
  });

  for (const [words, spec] of commands) {
    const name = `mtg ${words.join(' ')}`;
    describe(name, () => {
      const help = helpText(words);

      it('has a description', () => {
        expect(spec.summary.trim()).not.toBe('');
        const description = commanderCommand(words).description();
        expect(description.trim()).not.toBe('');
        const oneLine = (text: string) => text.replace(/\s+/g, ' ');
        expect(oneLine(help)).toContain(oneLine(description)); // commander wraps it to the width
      });

      it('shows 1 to 3 examples', () => {
        const examples = examplesOf(help);
        expect(examples.length).toBeGreaterThanOrEqual(1);
        expect(examples.length).toBeLessThanOrEqual(3);
        for (const example of examples) expect(example).toMatch(/^ {2}\$ (.*\| )?mtg /); // maybe piped into mtg
        expect(examples.length).toBe(spec.examples.length);
      });

      it('lists every option it can use with its default, and no option it cannot', () => {
        for (const option of [...(spec.options ?? []), ...commonOptionsOf(spec)]) {
          const entry = optionEntry(help, option);
          expect(entry, `${name}: ${option.flags}`).toBeDefined();
          if (option.defaultValue !== undefined && option.defaultValue !== false) {
            expect(entry, `${name}: ${option.flags}`).toContain(
              `(default: ${JSON.stringify(option.defaultValue)})`,
            );
          }
        }
        for (const option of COMMON_OPTIONS.filter((o) => !commonOptionsOf(spec).includes(o))) {
          expect(optionEntry(help, option), `${name}: ${option.flags}`).toBeUndefined();
        }
      });

      it('names every argument', () => {
        for (const arg of spec.args ?? []) expect(help).toContain(arg.name);
      });
    });
  }

  it('`mtg` alone lists every group and command of the top level', async () => {
    const { code, stdout } = await runInProcess([]);
    expect(code).toBe(0);
    for (const node of commandTree) expect(stdout).toMatch(new RegExp(`^  ${node.name}\\b`, 'm'));
  });

  it('`mtg <group> --help` lists its commands', async () => {
    const group = commandTree.find(isGroup)!;
    const { code, stdout } = await runInProcess([group.name, '--help']);
    expect(code).toBe(0);
    for (const spec of group.commands) expect(stdout).toMatch(new RegExp(`^  ${spec.name}\\b`, 'm'));
  });
});

describe('a mistyped command', () => {
  const mistyped = commandTree.some((n) => n.name === 'action-items')
    ? { typed: 'action-itms', meant: 'action-items' }
    : { typed: 'confg', meant: 'config' };

  it(`\`mtg ${mistyped.typed}\` exits 2 and suggests ${mistyped.meant}`, async () => {
    const { code, stdout, stderr } = await runInProcess([mistyped.typed]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`Did you mean ${mistyped.meant}?`);
  });

  it('a mistyped command of a group suggests the closest one', async () => {
    const { code, stderr } = await runInProcess(['config', 'lst']);
    expect(code).toBe(2);
    expect(stderr).toContain('Did you mean list?');
  });

  it('a mistyped option suggests the closest one', async () => {
    const { code, stderr } = await runInProcess(['meetings', 'list', '--verbse']);
    expect(code).toBe(2);
    expect(stderr).toContain('Did you mean --verbose?');
  });
});
