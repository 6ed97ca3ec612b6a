// Builds the commander program from the declared command tree (spec.ts). Commander parses; the run
// functions receive validated globals and a Context, never commander objects.
//
// Global options (globals.ts) are program options, so commander reads them before and after the
// command words alike. The option sets (output, list, network) are hidden at the top: each command
// declares the sets it honours among its options (for its --help only: the program reads the
// values), and a set option given to a command that does not honour it is exit 2 (refuseUnhonoured).

import { Command, Help, Option } from 'commander';
import { UsageError } from '../shared/errors.js';
import type { Context } from './context.js';
import { longFlagOf } from './declare.js';
import { COMMON_OPTIONS, commonOptionsOf, SET_OPTIONS } from './globals.js';
import { HELP_TOPIC_NAMES } from './help-texts.js';
import { collect } from './input.js';
import { type Args, type CommandNode, isGroup, type OptionDecl, type Opts, type TreeNode } from './spec.js';

export type Runner = (
  spec: CommandNode,
  args: Args,
  opts: Record<string, unknown>,
  command: Command,
) => Promise<void>;

export function toOption(spec: OptionDecl): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.repeatable) option.argParser(collect);
  if (spec.defaultValue !== undefined) option.default(spec.defaultValue);
  return option;
}

/** commander's key of an option ("--max-wait <s>" -> "maxWait", "--no-color" -> "color"). */
function optionKey(spec: OptionDecl): string {
  return new Option(spec.flags).attributeName();
}

/** Why, for the options whose refusal needs a word more than its name (a command may say better). */
const INSTEAD: Record<string, string> = {
  '--checkpoint': '--checkpoint applies to list commands only (a list export to -o FILE)',
};

/**
 * A set option given (before or after the command words) to a command that does not honour it, or
 * an option of every command that this one declares it cannot use (CommandDecl.without).
 */
function refuseUnhonoured(spec: CommandNode, command: Command, path: string): void {
  let root = command;
  while (root.parent) root = root.parent;
  const honoured = new Set(
    [...commonOptionsOf(spec), ...(spec.options ?? []).filter((o) => o.global)].map(optionKey),
  );
  for (const option of [...SET_OPTIONS, ...COMMON_OPTIONS]) {
    const key = optionKey(option);
    if (!honoured.has(key) && root.getOptionValueSource(key) === 'cli') {
      const instead = spec.instead?.[longFlagOf(option)] ?? INSTEAD[longFlagOf(option)];
      throw new UsageError(`mtg ${path} does not take ${longFlagOf(option)}${instead ? `: ${instead}` : ''}`);
    }
  }
}

/**
 * The values run() receives (typed by spec.ts's ArgsOf/OptsOf): variadic arguments and repeatable
 * options as lists ([] when none), flags as booleans, and each `parse` applied (exit 2 on a bad value).
 */
function commandValues(spec: CommandNode, command: Command): { args: Args; opts: Opts } {
  const args: Args = {};
  (spec.args ?? []).forEach((arg, i) => {
    const value = command.processedArgs[i] as string | string[] | undefined;
    args[arg.name] = arg.variadic ? (value ?? []) : value;
  });
  const given = command.opts();
  const opts: Opts = {};
  for (const option of spec.options ?? []) {
    if (option.global) continue;
    const key = optionKey(option);
    const value = given[key];
    if (option.repeatable) opts[key] = value ?? [];
    else if (!/[<[]/.test(option.flags)) opts[key] = value === undefined ? false : value;
    else opts[key] = value !== undefined && option.parse ? option.parse(String(value)) : value;
  }
  return { args, opts };
}

/** "meetings list" from commander's command chain (names, not aliases). */
function pathOf(command: Command): string {
  const words: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) words.unshift(c.name());
  return words.join(' ');
}

function examplesText(examples: string[]): string {
  // An example's further lines (a `\` continuation, a comment) are indented under its command.
  const shown = examples.map((e) => `  $ ${e.replace(/\n/g, '\n    ')}`);
  return examples.length ? `\nExamples:\n${shown.join('\n')}\n` : '';
}

/** The options of every command that a command cannot use (CommandDecl.without), for its help. */
const unusable = new WeakMap<Command, readonly string[]>();

function addCommand(parent: Command, spec: CommandNode, run: Runner): void {
  const cmd = parent
    .command(spec.name)
    .summary(spec.summary)
    .description(spec.description ?? spec.summary);
  if (spec.without?.length) unusable.set(cmd, spec.without);
  for (const alias of spec.aliases ?? []) cmd.alias(alias);
  for (const arg of spec.args ?? []) {
    const name = `${arg.name}${arg.variadic ? '...' : ''}`;
    cmd.argument(arg.required ? `<${name}>` : `[${name}]`, arg.description);
  }
  for (const option of spec.options ?? []) cmd.addOption(toOption(option));
  cmd.addHelpText('after', examplesText(spec.examples));
  cmd.action(async (...received: unknown[]) => {
    const command = received[received.length - 1] as Command;
    refuseUnhonoured(spec, command, pathOf(command));
    const { args, opts } = commandValues(spec, command);
    await run(spec, args, opts, command);
  });
}

const names = (node: { name: string; aliases?: readonly string[] }) => [node.name, ...(node.aliases ?? [])];

/**
 * The part of the tree commander needs for a command line that starts with a command's words
 * (`find ...`, `meetings list ...`): that command alone (in its group), so that a run builds one
 * command's options instead of the whole tree's (~60 commands). Anything else — an option before
 * the command words, a group alone, `help`, a word that names nothing — gets the whole tree, so
 * commander's help and suggestions are as before.
 */
export function treeFor(argv: readonly string[], tree: TreeNode[]): TreeNode[] {
  const [first, second] = argv;
  const node = tree.find((n) => first !== undefined && names(n).includes(first));
  if (!node) return tree;
  if (!isGroup(node)) return [node];
  const command = node.commands.find((c) => second !== undefined && names(c).includes(second));
  return command ? [{ ...node, commands: [command] }] : tree;
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
    // Commander's own errors (an unknown option or command, a missing argument) start "mtg:" like
    // every other error of mtg, instead of commander's "error:".
    .configureOutput({ ...io, outputError: (text, write) => write(text.replace(/^error: /, 'mtg: ')) })
    .description(
      'Work with the Meeting Notes Service from the command line: meetings, notes, action items, tags.',
    )
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command|topic]', 'show help for a command, or a topic (below)')
    .showSuggestionAfterError(true)
    // A fixed width, not the terminal's: help is then the same bytes everywhere, which lets
    // entry.ts answer --help from texts rendered at build time (help-texts.ts).
    .configureHelp({
      showGlobalOptions: true,
      // A global option that a command cannot use is not offered in its help (the contract).
      visibleGlobalOptions(this: Help, cmd: Command) {
        const without = unusable.get(cmd) ?? [];
        return Help.prototype.visibleGlobalOptions
          .call(this, cmd)
          .filter((o) => !without.includes(o.long ?? ''));
      },
      sortSubcommands: false,
      helpWidth: HELP_WIDTH,
      // "apply <TAG_ID> [MEETING_ID...]", without commander's " [options]" (every command has some):
      // a long first column left too little room, and commander then stopped wrapping at 80.
      subcommandTerm: (cmd) => {
        const args = cmd.registeredArguments.map((a) => {
          const name = a.name() + (a.variadic ? '...' : '');
          return a.required ? `<${name}>` : `[${name}]`;
        });
        return [[cmd.name(), ...cmd.aliases().slice(0, 1)].join('|'), ...args].join(' ');
      },
    });
  for (const option of COMMON_OPTIONS) program.addOption(toOption(option));
  // Read here wherever they are typed; shown (with their defaults) in the help of the commands
  // that honour them. No default here: it would hide the command's own (optsWithGlobals).
  for (const option of SET_OPTIONS) {
    program.addOption(toOption({ ...option, defaultValue: undefined }).hideHelp());
  }
  program.addHelpText(
    'after',
    '\nOptions of the commands that honour them (see their --help), before or after the\n' +
      'command words:\n' +
      '  output   --format, --json, --fields, -o/--output, --bom, --raw-cells, --jq\n' +
      '  list     --limit, --checkpoint\n' +
      '  network  --base-url, --insecure, -v/--verbose, --api-key, --max-retries,\n' +
      '           --timeout, --max-wait (the mirror commands: --base-url)\n' +
      `\nHelp topics (mtg help TOPIC):\n  ${HELP_TOPIC_NAMES.join(', ')}\n` +
      examplesText([
        'mtg sandbox                               # a local API to try everything',
        'mtg action-items list --assignee anyone --json',
        "mtg meetings list --since 7d --jq '.[].name'",
        'mtg sync && mtg find "budget"             # a local mirror, searched offline',
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
