// Shell completion scripts generated from the declared command tree (spec.ts) and the global
// options: groups and their aliases, commands, options, and the values of options and arguments
// declared with `choices`. The scripts are static (lookup tables as `case` statements), so TAB
// never starts node; `npm run completions` writes them to completions/ and a test keeps them current.

import { type DeclaredNode, isDeclaredGroup as isGroup, longFlagOf, type OptionDecl } from './declare.js';
import { HELP_TOPIC_NAMES } from './help-texts.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

type ValueKind = 'none' | 'text' | 'file' | 'choices';

export interface CompletionOption {
  /** "-o", "--output": every spelling that commander accepts. */
  names: string[];
  short?: string;
  long?: string;
  value: ValueKind;
  choices: string[];
  description: string;
}

export interface CompletionChild {
  name: string;
  aliases: string[];
  summary: string;
  /** The node this word leads to ("action-items list"). */
  path: string;
}

export interface CompletionNode {
  /** Canonical words from the top: "" (mtg itself), "meetings", "meetings list", "sandbox". */
  path: string;
  children: CompletionChild[];
  options: CompletionOption[];
  /** Choices of each positional argument, by position; a variadic last argument repeats. */
  args: { choices: string[]; variadic: boolean }[];
}

export interface CompletionModel {
  nodes: CompletionNode[];
  /** Accepted at every level (commander reads program options before and after subcommands). */
  globals: CompletionOption[];
}

const HELP: OptionDecl = { flags: '-h, --help', description: 'show help' };
const VERSION: OptionDecl = { flags: '-V, --version', description: 'print the version' };

/** Placeholders such as PROFILE_ID are listed with the choices for help, but are not words to type. */
function isPlaceholder(choice: string): boolean {
  return /^[A-Z]+(_[A-Z]+)+$/.test(choice);
}

/** First sentence or line, one line, short enough for a completion menu. */
function menuText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

export function completionOption(spec: OptionDecl): CompletionOption {
  const short = /(?:^|[\s,])(-[A-Za-z0-9])\b/.exec(spec.flags)?.[1];
  const long = /(--[A-Za-z0-9][\w-]*)/.exec(spec.flags)?.[1];
  const placeholder = /[<[]([^>\]]*)[>\]]/.exec(spec.flags)?.[1];
  const choices = (spec.choices ?? []).filter((c) => !isPlaceholder(c));
  let value: ValueKind = 'none';
  if (placeholder !== undefined) {
    if (choices.length) value = 'choices';
    else if (/^file$/i.test(placeholder) || /(^--|-)file$/.test(long ?? ''))
      value = 'file'; // --notes-file <path>
    else value = 'text';
  }
  return {
    names: [short, long].filter((n): n is string => n !== undefined),
    short,
    long,
    value,
    choices: value === 'choices' ? choices : [],
    description: menuText(spec.description),
  };
}

/**
 * `globalOptions` are offered at every level; `topOptions` before the command words only (the
 * option sets, which each command that honours them also declares among its own options).
 */
export function completionModel(
  tree: readonly DeclaredNode[],
  globalOptions: readonly OptionDecl[],
  topOptions: readonly OptionDecl[] = [],
): CompletionModel {
  // A global option some command cannot use (CommandDecl.without) is offered per node instead:
  // at the top, in groups and by each command that can use it.
  const leaves = tree.flatMap((n) => (isGroup(n) ? n.commands : [n]));
  const unusable = new Set<string>(leaves.flatMap((c) => c.without ?? []));
  const somewhere = globalOptions.filter((o) => unusable.has(longFlagOf(o)));
  const everywhere = globalOptions.filter((o) => !unusable.has(longFlagOf(o)));
  const root: CompletionNode = {
    path: '',
    children: [],
    options: [VERSION, ...topOptions, ...somewhere].map(completionOption),
    args: [],
  };
  const nodes: CompletionNode[] = [root];
  const leaf = (path: string, spec: Exclude<DeclaredNode, { commands: unknown }>): CompletionNode => ({
    path,
    children: [],
    options: [
      ...(spec.options ?? []),
      ...somewhere.filter((o) => !(spec.without ?? ([] as readonly string[])).includes(longFlagOf(o))),
    ].map(completionOption),
    args: (spec.args ?? []).map((a) => ({ choices: [...(a.choices ?? [])], variadic: !!a.variadic })),
  });
  const child = (name: string, aliases: string[] | undefined, summary: string, path: string) => ({
    name,
    aliases: aliases ?? [],
    summary: menuText(summary),
    path,
  });
  for (const node of tree) {
    root.children.push(child(node.name, node.aliases, node.summary, node.name));
    if (isGroup(node)) {
      const group: CompletionNode = {
        path: node.name,
        children: [],
        options: somewhere.map(completionOption),
        args: [],
      };
      nodes.push(group);
      for (const spec of node.commands) {
        const path = `${node.name} ${spec.name}`;
        group.children.push(child(spec.name, spec.aliases, spec.summary, path));
        nodes.push(leaf(path, spec));
      }
    } else {
      nodes.push(leaf(node.name, node));
    }
  }
  // `mtg help TOPIC|COMMAND` (commander's help command, answered by help-texts.ts): the topics first.
  root.children.push(child('help', [], 'show help for a command, or a topic', 'help'));
  nodes.push({
    path: 'help',
    children: [],
    options: [],
    // "mirror" is a topic and a command: `mtg help mirror` is the topic (`mtg mirror --help` the command).
    args: [
      { choices: [...new Set([...HELP_TOPIC_NAMES, ...tree.map((node) => node.name)])], variadic: false },
    ],
  });
  return { nodes, globals: [...everywhere, HELP].map(completionOption) };
}

export function completionScript(
  shell: Shell,
  tree: readonly DeclaredNode[],
  globalOptions: readonly OptionDecl[],
  topOptions: readonly OptionDecl[] = [],
): string {
  const model = completionModel(tree, globalOptions, topOptions);
  switch (shell) {
    case 'bash':
      return bashScript(model);
    case 'zsh':
      return zshScript(model);
    case 'fish':
      return fishScript(model);
  }
}

// ---------------------------------------------------------------------------------------------
// Shared by bash and zsh: both read the same `case` syntax.

/** A single-quoted shell word (bash, zsh; fish reads '\'' too, but see fishQuote). */
function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function caseFunction(name: string, comment: string, subject: string, arms: string[], fallback: string) {
  return [
    `# ${comment}`,
    `${name}() {`,
    `  case ${subject} in`,
    ...arms.map((arm) => `    ${arm}`),
    `    *) ${fallback} ;;`,
    '  esac',
    '}',
  ].join('\n');
}

/** Case arms: the word each node's children are reached by (names and aliases) -> child path. */
function childArms(model: CompletionModel): string[] {
  return model.nodes.flatMap((node) =>
    node.children.map((c) => {
      const patterns = [c.name, ...c.aliases].map((w) => sq(`${node.path}|${w}`)).join('|');
      return `${patterns}) REPLY=${sq(c.path)} ;;`;
    }),
  );
}

/**
 * Case arms for option values: each node's own options first (flags too, so that a command's own
 * flag is never taken for a global option of the same name), then the global ones at any node.
 */
function valueArms(model: CompletionModel, set: (o: CompletionOption) => string): string[] {
  const arms: string[] = [];
  for (const node of model.nodes) {
    for (const o of node.options) {
      const body = o.value === 'none' ? '__mtg_kind=' : set(o);
      arms.push(`${o.names.map((n) => sq(`${node.path}|${n}`)).join('|')}) ${body} ;;`);
    }
  }
  for (const o of model.globals) {
    if (o.value === 'none') continue;
    arms.push(`${o.names.map((n) => `*${sq(`|${n}`)}`).join('|')}) ${set(o)} ;;`);
  }
  return arms;
}

/** Case arms for positional choices: "path|index" (a variadic last argument matches any later index). */
function argArms(model: CompletionModel, set: (choices: string[]) => string): string[] {
  const arms: string[] = [];
  for (const node of model.nodes) {
    node.args.forEach((arg, i) => {
      if (!arg.choices.length) return;
      arms.push(`${sq(`${node.path}|${i}`)}) ${set(arg.choices)} ;;`);
      if (arg.variadic) arms.push(`${sq(`${node.path}|`)}*) ${set(arg.choices)} ;;`);
    });
  }
  return arms;
}

/** Shell source kept verbatim: "$\{" in it stands for "${" (which a template literal would interpolate). */
function shellCode(strings: TemplateStringsArray): string {
  return strings.raw.join('').replaceAll('$\\{', '$' + '{');
}

const HEADER = (shell: Shell) =>
  `# ${shell} completion for mtg. Generated by \`mtg completion ${shell}\` from the command tree; do not edit.`;

// ---------------------------------------------------------------------------------------------
// bash

function bashScript(model: CompletionModel): string {
  const words = (list: string[]) => sq(list.join(' '));
  const subcommands = model.nodes
    .filter((n) => n.children.length)
    .map((n) => `${sq(n.path)}) REPLY=${words(n.children.flatMap((c) => [c.name, ...c.aliases]))} ;;`);
  const options = model.nodes
    .filter((n) => n.options.length)
    .map((n) => `${sq(n.path)}) REPLY=${words(n.options.flatMap((o) => o.names))} ;;`);
  const globals = model.globals.flatMap((o) => o.names);
  return `${[
    HEADER('bash'),
    '# Install: source it from ~/.bashrc, or save it as ~/.local/share/bash-completion/completions/mtg',
    '',
    caseFunction(
      '__mtg_child',
      'The node that word $2 leads to from node $1 ("" is mtg itself), in REPLY; empty when none.',
      '"$1|$2"',
      childArms(model),
      'REPLY=',
    ),
    '',
    caseFunction(
      '__mtg_subcommands',
      'The words that lead on from node $1, in REPLY.',
      '"$1"',
      subcommands,
      'REPLY=',
    ),
    '',
    caseFunction('__mtg_options', 'The options of node $1 itself, in REPLY.', '"$1"', options, 'REPLY='),
    '',
    caseFunction(
      '__mtg_value',
      'Whether option $2 at node $1 takes a value: __mtg_kind is text, file or choices (then REPLY),\n# empty for a flag.',
      '"$1|$2"',
      valueArms(
        model,
        (o) => `__mtg_kind=${o.value}${o.value === 'choices' ? ` REPLY=${words(o.choices)}` : ''}`,
      ),
      '__mtg_kind=',
    ),
    '',
    caseFunction(
      '__mtg_arg_choices',
      'The choices of positional argument $2 (from 0) of node $1, in REPLY.',
      '"$1|$2"',
      argArms(model, (c) => `REPLY=${words(c)}`),
      'REPLY=',
    ),
    '',
    `__mtg_globals=${words(globals)}`,
    '',
    BASH_MAIN,
  ].join('\n')}\n`;
}

const BASH_MAIN = shellCode`_mtg() {
  local REPLY __mtg_kind cur=$\{COMP_WORDS[COMP_CWORD]} prev= node= word opt= prefix= i=1 npos=0
  ((COMP_CWORD > 0)) && prev=$\{COMP_WORDS[COMP_CWORD - 1]}
  COMPREPLY=()
  # Walk the words before the cursor: the node reached, and how many arguments it has been given.
  # Option values are skipped; bash splits "--opt=value" into "--opt" "=" "value".
  while ((i < COMP_CWORD)); do
    word=$\{COMP_WORDS[i]}
    case $word in
      -*=*) ;;
      -*)
        __mtg_value "$node" "$word"
        if [[ -n $__mtg_kind ]]; then
          if [[ $\{COMP_WORDS[i + 1]} == = ]]; then ((i += 2)); else ((i += 1)); fi
        fi
        ;;
      *)
        __mtg_child "$node" "$word"
        if [[ -n $REPLY && $npos -eq 0 ]]; then node=$REPLY; else ((npos += 1)); fi
        ;;
    esac
    ((i += 1))
  done

  # The value of an option: "--opt value", "--opt=value", or "--opt=" when "=" is no word break.
  if [[ $cur == = && $prev == -* ]]; then
    opt=$prev cur=
  elif [[ $prev == = ]] && ((COMP_CWORD >= 2)) && [[ $\{COMP_WORDS[COMP_CWORD - 2]} == -* ]]; then
    opt=$\{COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $cur == -*=* ]]; then
    opt=$\{cur%%=*} prefix=$\{cur%%=*}= cur=$\{cur#*=}
  elif [[ $prev == -* ]]; then
    opt=$prev
  fi
  if [[ -n $opt ]]; then
    __mtg_value "$node" "$opt"
    case $__mtg_kind in
      choices)
        COMPREPLY=($(compgen -P "$prefix" -W "$REPLY" -- "$cur"))
        return 0
        ;;
      file)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0
        ;;
      text) return 0 ;;
    esac
  fi

  if [[ $cur == -* ]]; then
    __mtg_options "$node"
    COMPREPLY=($(compgen -W "$REPLY $__mtg_globals" -- "$cur"))
    return 0
  fi
  __mtg_subcommands "$node"
  if [[ -n $REPLY && $npos -eq 0 ]]; then
    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
    return 0
  fi
  __mtg_arg_choices "$node" "$npos"
  if [[ -n $REPLY ]]; then COMPREPLY=($(compgen -W "$REPLY" -- "$cur")); fi
  return 0
}

complete -F _mtg mtg`;

// ---------------------------------------------------------------------------------------------
// zsh: the same walk, with descriptions in the menus.

function zshScript(model: CompletionModel): string {
  const described = (pairs: [string, string][]) =>
    `reply=(${pairs.map(([word, text]) => sq(`${word.replace(/:/g, '\\:')}:${text}`)).join(' ')})`;
  const words = (list: string[]) => `reply=(${list.map(sq).join(' ')})`;
  const optionPairs = (options: CompletionOption[]) =>
    options.flatMap((o) => o.names.map((n): [string, string] => [n, o.description]));
  const subcommands = model.nodes
    .filter((n) => n.children.length)
    .map(
      (n) =>
        `${sq(n.path)}) ${described(
          n.children.flatMap((c) => [c.name, ...c.aliases].map((w): [string, string] => [w, c.summary])),
        )} ;;`,
    );
  const options = model.nodes
    .filter((n) => n.options.length)
    .map((n) => `${sq(n.path)}) ${described(optionPairs(n.options))} ;;`);
  return `${[
    '#compdef mtg',
    HEADER('zsh'),
    '# Install: save it as _mtg in a folder of $fpath before compinit runs, e.g.',
    '#   mtg completion zsh > ~/.zfunc/_mtg   # with fpath=(~/.zfunc $fpath) in ~/.zshrc',
    '',
    caseFunction(
      '__mtg_child',
      'The node that word $2 leads to from node $1 ("" is mtg itself), in REPLY; empty when none.',
      '"$1|$2"',
      childArms(model),
      'REPLY=',
    ),
    '',
    caseFunction(
      '__mtg_subcommands',
      'The words that lead on from node $1, described, in reply.',
      '"$1"',
      subcommands,
      'reply=()',
    ),
    '',
    caseFunction(
      '__mtg_options',
      'The options of node $1 itself, described, in reply.',
      '"$1"',
      options,
      'reply=()',
    ),
    '',
    caseFunction(
      '__mtg_value',
      'Whether option $2 at node $1 takes a value: __mtg_kind is text, file or choices (then reply),\n# empty for a flag.',
      '"$1|$2"',
      valueArms(model, (o) => `__mtg_kind=${o.value}${o.value === 'choices' ? `; ${words(o.choices)}` : ''}`),
      '__mtg_kind=',
    ),
    '',
    caseFunction(
      '__mtg_arg_choices',
      'The choices of positional argument $2 (from 0) of node $1, in reply.',
      '"$1|$2"',
      argArms(model, words),
      'reply=()',
    ),
    '',
    `__mtg_globals=(${optionPairs(model.globals)
      .map(([n, d]) => sq(`${n}:${d}`))
      .join(' ')})`,
    '',
    ZSH_MAIN,
  ].join('\n')}\n`;
}

const ZSH_MAIN = shellCode`_mtg() {
  local REPLY __mtg_kind cur=$\{words[CURRENT]} node= word opt= i=2 npos=0
  local -a reply all
  # Walk the words before the cursor: the node reached, and how many arguments it has been given.
  while ((i < CURRENT)); do
    word=$\{words[i]}
    case $word in
      -*=*) ;;
      -*)
        __mtg_value "$node" "$word"
        [[ -n $__mtg_kind ]] && ((i += 1))
        ;;
      *)
        __mtg_child "$node" "$word"
        if [[ -n $REPLY && $npos -eq 0 ]]; then node=$REPLY; else ((npos += 1)); fi
        ;;
    esac
    ((i += 1))
  done

  # The value of an option: "--opt value" or "--opt=value".
  if [[ $cur == -*=* ]]; then
    opt=$\{cur%%=*}
    compset -P '*='
  elif ((CURRENT > 2)) && [[ $\{words[CURRENT - 1]} == -* ]]; then
    opt=$\{words[CURRENT - 1]}
  fi
  if [[ -n $opt ]]; then
    __mtg_value "$node" "$opt"
    case $__mtg_kind in
      choices) compadd -a reply; return ;;
      file) _files; return ;;
      text) _message 'value'; return ;;
    esac
  fi

  if [[ $cur == -* ]]; then
    __mtg_options "$node"
    all=($reply $__mtg_globals)
    _describe -t options 'option' all
    return
  fi
  __mtg_subcommands "$node"
  if (($\{#reply} && npos == 0)); then
    _describe -t commands 'command' reply
    return
  fi
  __mtg_arg_choices "$node" "$npos"
  (($\{#reply})) && compadd -a reply
}

if [[ $funcstack[1] == _mtg ]]; then
  # Autoloaded from $fpath: this file is the body of _mtg, so complete now.
  _mtg "$@"
else
  compdef _mtg mtg
fi`;

// ---------------------------------------------------------------------------------------------
// fish: a function finds the node before the cursor; `complete` rules are conditioned on it.

function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function fishOption(o: CompletionOption, condition: string | undefined): string {
  const parts = ['complete -c mtg'];
  if (condition) parts.push(`-n ${fishQuote(condition)}`);
  if (o.short) parts.push(`-s ${o.short.slice(1)}`);
  if (o.long) parts.push(`-l ${o.long.slice(2)}`);
  if (o.value === 'choices') parts.push(`-x -a ${fishQuote(o.choices.join(' '))}`);
  else if (o.value === 'file') parts.push('-r -F');
  else if (o.value === 'text') parts.push('-x');
  parts.push(`-d ${fishQuote(o.description)}`);
  return parts.join(' ');
}

function fishSwitch(
  name: string,
  comment: string,
  subject: string,
  arms: [string[], string][],
  fallback: string,
) {
  return [
    `# ${comment}`,
    `function ${name}`,
    `    switch ${subject}`,
    ...arms.flatMap(([patterns, body]) => [`        case ${patterns.join(' ')}`, `            ${body}`]),
    '        case "*"',
    `            ${fallback}`,
    '    end',
    'end',
  ].join('\n');
}

function fishScript(model: CompletionModel): string {
  const childArmsFish: [string[], string][] = model.nodes.flatMap((node) =>
    node.children.map((c): [string[], string] => [
      [c.name, ...c.aliases].map((w) => fishQuote(`${node.path}|${w}`)),
      `echo ${fishQuote(c.path)}`,
    ]),
  );
  // A node's own options first (flags too: see valueArms), then the global ones at any node.
  const valueArmsFish: [string[], string][] = [];
  const arm = (options: CompletionOption[], pattern: (name: string) => string, result: string) => {
    if (options.length) valueArmsFish.push([options.flatMap((o) => o.names.map(pattern)), result]);
  };
  for (const node of model.nodes) {
    const pattern = (n: string) => fishQuote(`${node.path}|${n}`);
    arm(
      node.options.filter((o) => o.value !== 'none'),
      pattern,
      'return 0',
    );
    arm(
      node.options.filter((o) => o.value === 'none'),
      pattern,
      'return 1',
    );
  }
  // Quoted wildcards still match in a fish `case` (quoting only stops file-name expansion).
  arm(
    model.globals.filter((o) => o.value !== 'none'),
    (n) => fishQuote(`*|${n}`),
    'return 0',
  );

  const at = (path: string) => `__mtg_at ${fishQuote(path)}`;
  const rules: string[] = [];
  for (const node of model.nodes) {
    for (const c of node.children) {
      for (const w of [c.name, ...c.aliases]) {
        rules.push(
          `complete -c mtg -n ${fishQuote(at(node.path))} -a ${fishQuote(w)} -d ${fishQuote(c.summary)}`,
        );
      }
    }
    for (const o of node.options) rules.push(fishOption(o, at(node.path)));
    node.args.forEach((arg, i) => {
      if (!arg.choices.length) return;
      const when = `${at(node.path)}; and __mtg_args_at ${arg.variadic ? `-ge ${i}` : `-eq ${i}`}`;
      rules.push(`complete -c mtg -n ${fishQuote(when)} -a ${fishQuote(arg.choices.join(' '))}`);
    });
  }
  for (const o of model.globals) rules.push(fishOption(o, undefined));

  return `${[
    HEADER('fish'),
    '# Install: mtg completion fish > ~/.config/fish/completions/mtg.fish',
    '',
    fishSwitch(
      '__mtg_child',
      'The node that word $argv[2] leads to from node $argv[1] ("" is mtg itself).',
      '"$argv[1]|$argv[2]"',
      childArmsFish,
      'return 1',
    ),
    '',
    fishSwitch(
      '__mtg_takes_value',
      'Whether option $argv[2] at node $argv[1] takes a value.',
      '"$argv[1]|$argv[2]"',
      valueArmsFish,
      'return 1',
    ),
    '',
    FISH_MAIN,
    '',
    '# No file names unless an option asks for one.',
    'complete -c mtg -f',
    ...rules,
  ].join('\n')}\n`;
}

const FISH_MAIN = shellCode`# Prints the node before the cursor, then how many arguments it has been given.
function __mtg_walk
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l node ''
    set -l npos 0
    set -l skip 0
    for token in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $token
            case '-*=*'
            case '-*'
                __mtg_takes_value "$node" $token; and set skip 1
            case '*'
                set -l child (__mtg_child "$node" $token)
                if test -n "$child" -a $npos -eq 0
                    set node $child
                else
                    set npos (math $npos + 1)
                end
        end
    end
    printf '%s\n' "$node" $npos
end

function __mtg_at
    set -l walk (__mtg_walk)
    test "$walk[1]" = "$argv[1]"
end

function __mtg_args_at
    set -l walk (__mtg_walk)
    test "$walk[2]" $argv[1] $argv[2]
end`;
