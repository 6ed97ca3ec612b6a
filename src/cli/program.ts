// Builds the commander program from the declared command tree (spec.ts). Commander parses; the run
// functions receive validated globals and a Context, never commander objects.

import { Command, Option } from 'commander';
import type { Context } from './context.js';
import { GLOBAL_OPTIONS } from './globals.js';
import { collect } from './input.js';
import { type Args, type CommandSpec, isGroup, type OptionSpec, type TreeNode } from './spec.js';

export type Runner = (
  spec: CommandSpec,
  args: Args,
  opts: Record<string, unknown>,
  command: Command,
) => Promise<void>;

export function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.repeatable) option.argParser(collect);
  if (spec.defaultValue !== undefined) option.default(spec.defaultValue);
  return option;
}

function describe(spec: CommandSpec): string {
  const lines = [spec.description ?? spec.summary];
  return lines.join('\n');
}

function examplesText(examples: string[]): string {
  return examples.length ? `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n` : '';
}

function addCommand(parent: Command, spec: CommandSpec, run: Runner): void {
  const cmd = parent.command(spec.name).summary(spec.summary).description(describe(spec));
  for (const alias of spec.aliases ?? []) cmd.alias(alias);
  for (const arg of spec.args ?? []) {
    const name = `${arg.name}${arg.variadic ? '...' : ''}`;
    cmd.argument(arg.required ? `<${name}>` : `[${name}]`, arg.description);
  }
  for (const option of spec.options ?? []) cmd.addOption(toOption(option));
  cmd.addHelpText('after', examplesText(spec.examples));
  cmd.action(async (...received: unknown[]) => {
    const command = received[received.length - 1] as Command;
    const args: Args = {};
    (spec.args ?? []).forEach((arg, i) => {
      args[arg.name] = command.processedArgs[i] as string | string[] | undefined;
    });
    await run(spec, args, command.opts(), command);
  });
}

/** Columns that help is wrapped to, whatever the terminal (see buildProgram). */
export const HELP_WIDTH = 80;

export interface ProgramIO {
  writeOut(s: string): void;
  writeErr(s: string): void;
}

export function buildProgram(tree: TreeNode[], version: string, run: Runner, io: ProgramIO): Command {
  const program = new Command('mtg')
    // Set before subcommands are added: commander copies these settings to them at creation.
    .exitOverride()
    .configureOutput(io)
    .description(
      'Work with the Meeting Notes Service from the command line: meetings, notes, action items, tags.',
    )
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    // A fixed width, not the terminal's: help is then the same bytes everywhere, which lets
    // entry.ts answer --help from texts rendered at build time (help-texts.ts).
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false, helpWidth: HELP_WIDTH });
  for (const option of GLOBAL_OPTIONS) program.addOption(toOption(option));
  program.addHelpText(
    'after',
    examplesText([
      'mtg sandbox                                  # a local API to try everything',
      'mtg action-items list --assignee anyone --json',
      "mtg meetings list --since 7d --jq '.[].name'",
      'mtg sync && mtg find "budget"                # a local mirror, searched offline',
      'mtg meetings list --offline --limit 20',
    ]),
  );
  for (const node of tree) {
    if (isGroup(node)) {
      const group = program.command(node.name).summary(node.summary).description(node.summary);
      for (const alias of node.aliases ?? []) group.alias(alias);
      for (const spec of node.commands) addCommand(group, spec, run);
    } else {
      addCommand(program, node, run);
    }
  }
  return program;
}

export type { Context };
