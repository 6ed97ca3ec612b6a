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
  /** One value per use: --tag 3 --tag 7 (commands that take comma lists split them: listValues). */
  repeatable?: boolean;
  /** Values offered by completion and shown in help (matched case-insensitively by the command). */
  choices?: readonly string[];
  defaultValue?: string | boolean;
  /** Turns the text given (or the default) into the value run() receives; throws a UsageError. */
  parse?: (value: string) => unknown;
  /** A global option (globals.ts): its value is in ctx.globals, not in the command's opts. */
  global?: boolean;
}

/** What a command's spec.ts declares: everything but the code that runs it. */
export interface CommandDecl {
  name: string;
  aliases?: string[];
  summary: string;
  description?: string;
  args?: readonly ArgSpec[];
  /** The command's own options, then the option sets it honours (globals.ts). */
  options?: readonly OptionSpec[];
  /** One to three examples, shown in --help. */
  examples: string[];
  /** What to use instead of a global option this command does not take ("--checkpoint": "use --after SEQ"). */
  instead?: Record<string, string>;
}

// ---- values typed from the declaration -------------------------------------------------------

type LongFlag<F extends string> = F extends `${string}--${infer Rest}`
  ? Rest extends `${infer Name} ${string}`
    ? Name
    : Rest
  : never;
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
/** "--assignee-team <id>" -> "assigneeTeam"; "--no-transcripts" -> "transcripts" (as commander). */
export type OptionKey<F extends string> =
  LongFlag<F> extends `no-${infer Name}` ? CamelCase<Name> : CamelCase<LongFlag<F>>;
type TakesValue<F extends string> = F extends `${string}<${string}>` | `${string}[${string}]` ? true : false;
type OptionValue<O extends OptionSpec> = O extends { parse: (value: string) => infer V }
  ? O extends { defaultValue: string }
    ? V
    : V | undefined
  : O extends { repeatable: true }
    ? string[]
    : TakesValue<O['flags']> extends true
      ? O extends { defaultValue: string }
        ? string
        : string | undefined
      : boolean;

/** The command's own options (not the global ones), by their commander key. */
export type OptsOf<O extends readonly OptionSpec[] | undefined> = O extends readonly OptionSpec[]
  ? { [P in Exclude<O[number], { global: true }> as OptionKey<P['flags']>]: OptionValue<P> }
  : Record<string, never>;

/** Arguments by name: required ones are strings, variadic ones lists, the others may be missing. */
export type ArgsOf<A extends readonly ArgSpec[] | undefined> = A extends readonly ArgSpec[]
  ? {
      [P in A[number] as P['name']]: P extends { variadic: true }
        ? string[]
        : P extends { required: true }
          ? string
          : string | undefined;
    }
  : Record<string, never>;

export type Opts = Record<string, unknown>;
export type Args = Record<string, string | string[] | undefined>;

/** Runs the command; returns the exit code (0 when omitted). */
export type RunFunction = (ctx: Context, args: Args, opts: Opts) => Promise<number | undefined>;

/** A command's module (src/commands/<folder>/<command>.ts). */
export interface CommandModule {
  run: RunFunction;
}

export interface CommandSpec extends CommandDecl {
  /** A list export (runList): takes --checkpoint (LIST_OPTIONS). */
  list: boolean;
  /** Loads the command's module (a dynamic import: the one lazy boundary of the command tree). */
  load(): Promise<CommandModule>;
  /** Loads the module and runs the command. */
  run: RunFunction;
}

/** A declaration, kept as written (literal flags and names) so that defineRun can type the values. */
export function defineCommand<const D extends CommandDecl>(decl: D): D {
  return decl;
}

/** A command's run function, its args and opts typed from its declaration. */
export function defineRun<D extends CommandDecl>(
  _decl: D,
  run: (ctx: Context, args: ArgsOf<D['args']>, opts: OptsOf<D['options']>) => Promise<number | undefined>,
): RunFunction {
  return run as unknown as RunFunction;
}

/** A declared command and the loader of its module: a node of the command tree. */
export function command(decl: CommandDecl, load: () => Promise<CommandModule>): CommandSpec {
  return {
    ...decl,
    list: (decl.options ?? []).some((o) => o.global && o.flags.startsWith('--checkpoint')),
    load,
    run: async (ctx, args, opts) => (await load()).run(ctx, args, opts),
  };
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

/** The opts a declared command's run() receives (for helpers that take them). */
export type OptsFor<D extends CommandDecl> = OptsOf<D['options']>;
