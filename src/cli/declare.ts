// What a command declares (its spec.ts): name, summary, arguments, options, examples, and the
// values its run() receives typed from that declaration. Data only: the command tree's nodes, which
// add the loader of the command's module, are in spec.ts; globals.ts, completion and help read
// declarations without needing anything that runs a command.

export interface ArgDecl {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  /** Values offered by completion (the command validates them itself, e.g. with oneOf()). */
  choices?: readonly string[];
}

export interface OptionDecl {
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

/** The long flag of an option ("-o, --output <file>" -> "--output"). */
export function longFlagOf(option: OptionDecl): string {
  return /--[\w-]+/.exec(option.flags)?.[0] ?? option.flags;
}

/** The options of every command that a command may declare it cannot use (CommandDecl.without). */
export type CommonOptionFlag = '--offline' | '--profile';

/** What a command's spec.ts declares: everything but the code that runs it. */
export interface CommandDecl {
  name: string;
  aliases?: string[];
  summary: string;
  description?: string;
  args?: readonly ArgDecl[];
  /** The command's own options, then the option sets it honours (globals.ts). */
  options?: readonly OptionDecl[];
  /** One to three examples, shown in --help. */
  examples: string[];
  /**
   * Options of every command (globals.ts COMMON_OPTIONS) that this one cannot use: not in its help,
   * man page or completion, and refused (exit 2) like a set option it does not honour.
   */
  without?: readonly CommonOptionFlag[];
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
type OptionValue<O extends OptionDecl> = O extends { parse: (value: string) => infer V }
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
export type OptsOf<O extends readonly OptionDecl[] | undefined> = O extends readonly OptionDecl[]
  ? { [P in Exclude<O[number], { global: true }> as OptionKey<P['flags']>]: OptionValue<P> }
  : Record<string, never>;

/** Arguments by name: required ones are strings, variadic ones lists, the others may be missing. */
export type ArgsOf<A extends readonly ArgDecl[] | undefined> = A extends readonly ArgDecl[]
  ? {
      [P in A[number] as P['name']]: P extends { variadic: true }
        ? string[]
        : P extends { required: true }
          ? string
          : string | undefined;
    }
  : Record<string, never>;

/** A declaration, kept as written (literal flags and names) so that defineRun can type the values. */
export function defineCommand<const D extends CommandDecl>(decl: D): D {
  return decl;
}

/** What a group's spec.ts declares: its name, aliases and summary (its commands are in the registry). */
export interface GroupDecl {
  name: string;
  aliases?: string[];
  summary: string;
}

/** A command node as completion and help see it: its declaration (the loader is not needed). */
export interface DeclaredCommand extends CommandDecl {
  /** A list export (runList): takes --checkpoint (LIST_OPTIONS). */
  list: boolean;
}

export interface DeclaredGroup extends GroupDecl {
  commands: readonly DeclaredCommand[];
}

/** The command tree as declarations (the registry, src/commands/index.ts, is one). */
export type DeclaredNode = DeclaredGroup | DeclaredCommand;

export function isDeclaredGroup(node: DeclaredNode): node is DeclaredGroup {
  return 'commands' in node;
}
