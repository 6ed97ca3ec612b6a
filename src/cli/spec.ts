// Commands are declared as data (after wrangler): metadata, typed args and options, examples and a
// run function. program.ts turns the tree into commander commands; completion.ts into shell scripts.

import type { Context } from './context.js';

export interface ArgSpec {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  /** Values offered by completion (the command validates them itself, e.g. with oneOf()). */
  choices?: readonly string[];
}

export interface OptionSpec {
  /** commander flags, e.g. "--tag <id>" or "-e, --email <addr>". */
  flags: string;
  description: string;
  /** One value per use, and comma lists: --tag 3 --tag 7 or --tag 3,7. */
  repeatable?: boolean;
  /** Values offered by completion and shown in help (matched case-insensitively by the command). */
  choices?: readonly string[];
  defaultValue?: string | boolean;
}

export type Opts = Record<string, unknown>;
export type Args = Record<string, string | string[] | undefined>;

export interface CommandSpec {
  name: string;
  aliases?: string[];
  summary: string;
  description?: string;
  args?: ArgSpec[];
  options?: OptionSpec[];
  /** One to three examples, shown in --help. */
  examples: string[];
  /** A list export (runList): the only kind of command that takes --checkpoint. */
  list?: boolean;
  /** Returns the exit code (0 when omitted). */
  run(ctx: Context, args: Args, opts: Opts): Promise<number | undefined>;
}

export interface GroupSpec {
  name: string;
  aliases?: string[];
  summary: string;
  commands: CommandSpec[];
}

export type TreeNode = GroupSpec | CommandSpec;

export function isGroup(node: TreeNode): node is GroupSpec {
  return 'commands' in node;
}

/** The long option name ("--tag <id>" -> "tag"). */
export function longName(flags: string): string {
  return /--([\w-]+)/.exec(flags)?.[1] ?? flags;
}
