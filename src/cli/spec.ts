// Commands are declared as data (after wrangler): metadata, args, options and examples in each
// folder's spec.ts, and the module that runs the command, loaded only when it runs (the registry,
// src/commands/index.ts, is that one lazy boundary). program.ts turns the tree into commander
// commands; completion.ts into shell scripts; help-build.ts into dist/help.json.

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

/** What a command's spec.ts declares: everything but the code that runs it. */
export interface CommandDecl {
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
}

/** Runs the command; returns the exit code (0 when omitted). */
export type RunFunction = (ctx: Context, args: Args, opts: Opts) => Promise<number | undefined>;

/** A command's module (src/commands/<folder>/<command>.ts). */
export interface CommandModule {
  run: RunFunction;
}

export interface CommandSpec extends CommandDecl {
  /** Loads the command's module (a dynamic import: the one lazy boundary of the command tree). */
  load(): Promise<CommandModule>;
  /** Loads the module and runs the command. */
  run: RunFunction;
}

/** A declaration, kept as written (literal names) for the registry and for typing. */
export function defineCommand<const D extends CommandDecl>(decl: D): D {
  return decl;
}

/** A declared command and the loader of its module: a node of the command tree. */
export function command(decl: CommandDecl, load: () => Promise<CommandModule>): CommandSpec {
  return { ...decl, load, run: async (ctx, args, opts) => (await load()).run(ctx, args, opts) };
}

/** What a group's spec.ts declares: its name, aliases and summary (its commands are in the registry). */
export interface GroupDecl {
  name: string;
  aliases?: string[];
  summary: string;
}

export interface GroupSpec extends GroupDecl {
  commands: CommandSpec[];
}

export function group(decl: GroupDecl, commands: CommandSpec[]): GroupSpec {
  return { ...decl, commands };
}

export type TreeNode = GroupSpec | CommandSpec;

export function isGroup(node: TreeNode): node is GroupSpec {
  return 'commands' in node;
}
