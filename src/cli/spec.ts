// Commands are declared as data (after wrangler): metadata, args, options and examples in each
// folder's spec.ts, and the module that runs the command, loaded only when it runs (the registry,
// src/commands/index.ts, is that one lazy boundary). program.ts turns the tree into commander
// commands; completion.ts into shell scripts; help-build.ts into dist/help.json.
//
// The values a command's run() receives are typed from its declaration (defineRun): `--assignee-team
// <id>` arrives as `opts.assigneeTeam: string | undefined`, `--stdin` as a boolean, a repeatable
// option as the list of values given, an option with `parse` as what parse returns. program.ts
// builds those values (commandValues) and rejects bad ones with exit 2 before the command runs.

import type { Context } from './context.js';
import type { ArgsOf, CommandDecl, GroupDecl, OptsOf } from './declare.js';

export {
  type ArgDecl,
  type ArgsOf,
  type CommandDecl,
  defineCommand,
  type GroupDecl,
  type OptionDecl,
  type OptionKey,
  type OptsOf,
} from './declare.js';

export type Opts = Record<string, unknown>;
export type Args = Record<string, string | string[] | undefined>;

/** Runs the command; returns the exit code (0 when omitted). */
export type RunFunction = (ctx: Context, args: Args, opts: Opts) => Promise<number | undefined>;

/** A command's module (src/commands/<folder>/<command>.ts). */
export interface CommandModule {
  run: RunFunction;
}

export interface CommandNode extends CommandDecl {
  /** A list export (runList): takes --checkpoint (LIST_OPTIONS). */
  list: boolean;
  /** Loads the command's module (a dynamic import: the one lazy boundary of the command tree). */
  load(): Promise<CommandModule>;
  /** Loads the module and runs the command. */
  run: RunFunction;
}

/** A command's run function, its args and opts typed from its declaration. */
export function defineRun<D extends CommandDecl>(
  _decl: D,
  run: (ctx: Context, args: ArgsOf<D['args']>, opts: OptsOf<D['options']>) => Promise<number | undefined>,
): RunFunction {
  return run as unknown as RunFunction;
}

/** A declared command and the loader of its module: a node of the command tree. */
export function command(decl: CommandDecl, load: () => Promise<CommandModule>): CommandNode {
  return {
    ...decl,
    list: (decl.options ?? []).some((o) => o.global && o.flags.startsWith('--checkpoint')),
    load,
    run: async (ctx, args, opts) => (await load()).run(ctx, args, opts),
  };
}

export interface GroupNode extends GroupDecl {
  commands: CommandNode[];
}

export function group(decl: GroupDecl, commands: CommandNode[]): GroupNode {
  return { ...decl, commands };
}

export type TreeNode = GroupNode | CommandNode;

export function isGroup(node: TreeNode): node is GroupNode {
  return 'commands' in node;
}

/** The opts a declared command's run() receives (for helpers that take them). */
export type OptsFor<D extends CommandDecl> = OptsOf<D['options']>;
