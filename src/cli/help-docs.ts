// The command reference, generated from the command tree (the same declarations commander, help
// and completion are built from): Markdown under docs/commands/ and man pages under man/.
// `npm run docs` (scripts/gen-docs.mjs) writes them; test/docs/generated.test.ts fails when the
// committed files differ from what this renders. Pure: the tree in, { path: text } out.

import { COMMON_OPTIONS, commonOptionsOf } from './globals.js';
import { HELP_TOPICS, type HelpTopic } from './help-topics.js';
import { type ArgDecl, type CommandDecl, isGroup, type OptionDecl, type TreeNode } from './spec.js';

/** One command as the reference shows it. */
interface DocCommand {
  /** Canonical words: ["meetings", "list"] or ["sync"]. */
  words: string[];
  /** Every other spelling of the whole path ("meeting ls", ...). */
  spellings: string[];
  summary: string;
  description: string;
  args: readonly ArgDecl[];
  options: readonly OptionDecl[];
  /** The options of every command that it cannot use (CommandDecl.without): not on its page. */
  without: readonly string[];
  examples: string[];
}

/** A group, or a command of its own (then `commands` holds just it). */
interface DocPage {
  name: string;
  aliases: string[];
  summary: string;
  /** docs/commands/<file> */
  file: string;
  commands: DocCommand[];
}

const HELP_OPTION: OptionDecl = { flags: '-h, --help', description: 'show help' };
const VERSION_OPTION: OptionDecl = { flags: '-V, --version', description: 'print the version' };
const ROOT_OPTIONS: readonly OptionDecl[] = [VERSION_OPTION, ...COMMON_OPTIONS, HELP_OPTION];

function docCommand(prefix: string[], prefixSpellings: string[][], spec: CommandDecl): DocCommand {
  const names = [spec.name, ...(spec.aliases ?? [])];
  const all = prefixSpellings.flatMap((p) => names.map((n) => [...p, n].join(' ')));
  const words = [...prefix, spec.name];
  return {
    words,
    spellings: all.filter((s) => s !== words.join(' ')),
    summary: spec.summary,
    description: spec.description ?? spec.summary,
    args: spec.args ?? [],
    options: spec.options ?? [],
    without: spec.without ?? [],
    examples: spec.examples,
  };
}

function pages(tree: TreeNode[]): DocPage[] {
  return tree.map((node) => {
    const aliases = node.aliases ?? [];
    if (isGroup(node)) {
      const spellings = [node.name, ...aliases].map((n) => [n]);
      return {
        name: node.name,
        aliases,
        summary: node.summary,
        file: `${node.name}.md`,
        commands: node.commands.map((c) => docCommand([node.name], spellings, c)),
      };
    }
    return {
      name: node.name,
      aliases,
      summary: node.summary,
      file: `${node.name}.md`,
      commands: [docCommand([], [[]], node)],
    };
  });
}

function argTerm(arg: ArgDecl): string {
  const name = `${arg.name}${arg.variadic ? '...' : ''}`;
  return arg.required ? `<${name}>` : `[${name}]`;
}

function usage(cmd: DocCommand): string {
  return ['mtg', ...cmd.words, '[options]', ...cmd.args.map(argTerm)].join(' ');
}

/** "Default: 5." and the values an option takes, as one sentence each. */
function optionNotes(option: OptionDecl): string[] {
  const notes: string[] = [];
  if (typeof option.defaultValue === 'string') notes.push(`default: ${option.defaultValue}`);
  if (option.choices?.length) notes.push(`values: ${option.choices.join(', ')}`);
  return notes;
}

// ---- Markdown ------------------------------------------------------------------------------

/** GitHub's anchor of a heading ("mtg meetings list" -> "mtg-meetings-list"). */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');
}

/** Inline code that holds any text (backticks inside get a longer fence). */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return longest ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

/** Text from the declarations, as Markdown: `<` and `>` would read as HTML, `|`, `*`, `_` as markup. */
function md(text: string): string {
  // Backticked spans are kept as written; the rest is escaped (`_` inside words is no markup).
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/([\\*<>|[\]])/g, '\\$1')))
    .join('');
}

function optionLines(options: readonly OptionDecl[]): string[] {
  return options.map((o) => {
    const notes = optionNotes(o);
    return `- ${code(o.flags)}: ${md(o.description)}${notes.length ? ` (${md(notes.join('; '))})` : ''}`;
  });
}

function commandMarkdown(cmd: DocCommand): string[] {
  const title = `mtg ${cmd.words.join(' ')}`;
  const lines = [`## ${title}`, '', md(cmd.description), '', '```', usage(cmd), '```', ''];
  if (cmd.spellings.length) lines.push(`Also: ${cmd.spellings.map((s) => code(`mtg ${s}`)).join(', ')}`, '');
  if (cmd.args.length) {
    lines.push('Arguments:', '');
    for (const a of cmd.args) lines.push(`- ${code(argTerm(a))}: ${md(a.description)}`);
    lines.push('');
  }
  lines.push(
    'Options:',
    '',
    ...optionLines(cmd.options),
    `- the options of every command: ${commonOptionsOf(cmd)
      .map((o) => code(o.flags.replace(/ <.*/, '')))
      .join(', ')}, ` + `${code('-h, --help')} ([all of them](README.md#options-of-every-command))`,
    '',
  );
  if (cmd.examples.length) lines.push('Examples:', '', '```sh', ...cmd.examples, '```', '');
  return lines;
}

const GENERATED = '<!-- Generated by `npm run docs` from the command tree (src/commands): do not edit. -->';

function pageMarkdown(page: DocPage): string {
  const heading = page.commands.length === 1 && page.commands[0]?.words.length === 1 ? 'command' : 'commands';
  const lines = [GENERATED, '', `# mtg ${page.name}`, '', md(page.summary), ''];
  if (page.aliases.length) lines.push(`Alias: ${page.aliases.map((a) => code(`mtg ${a}`)).join(', ')}`, '');
  if (page.commands.length > 1) {
    for (const c of page.commands)
      lines.push(`- [mtg ${c.words.join(' ')}](#${anchor(`mtg ${c.words.join(' ')}`)}): ${md(c.summary)}`);
    lines.push('');
  }
  for (const c of page.commands) lines.push(...commandMarkdown(c));
  lines.push(`Back to [the ${heading} index](README.md).`, '');
  return lines.join('\n');
}

function topicMarkdown(topic: HelpTopic): string {
  return [
    GENERATED,
    '',
    `# mtg help ${topic.name}`,
    '',
    md(topic.summary),
    '',
    '```text',
    topic.text.trimEnd(),
    '```',
    '',
    'Back to [the index](../README.md).',
    '',
  ].join('\n');
}

function indexMarkdown(all: DocPage[]): string {
  const lines = [
    GENERATED,
    '',
    '# Command reference',
    '',
    'Every command of `mtg`, its arguments, options (with their defaults) and examples, as `mtg COMMAND --help`',
    'prints them. Man pages of the same text: `man mtg`, `man mtg-meetings-list`.',
    '',
    '| command | what it does |',
    '|---|---|',
  ];
  for (const page of all) {
    for (const c of page.commands) {
      const title = `mtg ${c.words.join(' ')}`;
      const link = page.commands.length > 1 ? `${page.file}#${anchor(title)}` : page.file;
      lines.push(`| [${code(title)}](${link}) | ${md(c.summary)} |`);
    }
  }
  lines.push(
    '',
    'Group aliases: ' +
      all
        .filter((p) => p.aliases.length)
        .map((p) => `${code(p.aliases.join(', '))} = ${code(p.name)}`)
        .join(', ') +
      '.',
    '',
    '## Options of every command',
    '',
    ...optionLines(ROOT_OPTIONS),
    '',
    'The other options (output, list and network sets) are listed with each command that takes them. ' +
      'A few commands cannot use one of these (' +
      all
        .flatMap((p) => p.commands)
        .filter((c) => c.without.length)
        .map((c) => `${code(`mtg ${c.words.join(' ')}`)}: no ${c.without.map(code).join(', ')}`)
        .join('; ') +
      '): there it is not offered, and refused (exit 2).',
    '',
    '## Help topics',
    '',
    '`mtg help TOPIC` prints these:',
    '',
  );
  for (const t of HELP_TOPICS) lines.push(`- [${t.name}](topics/${t.name}.md): ${md(t.summary)}`);
  lines.push('');
  return lines.join('\n');
}

// ---- roff (man pages) ------------------------------------------------------------------------

/**
 * Text for roff: backslashes and hyphens escaped, characters beyond ASCII as \[uXXXX] (groff reads
 * its input as Latin-1 otherwise), no line starting with a control character.
 */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(
      /[^\n\x20-\x7e]/gu,
      (c) => `\\[u${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`,
    )
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

function manHeader(name: string, section: number, summary: string): string[] {
  return [
    '.\\" Generated by `npm run docs` from the command tree (src/commands): do not edit.',
    `.TH "${name.toUpperCase()}" "${section}" "" "mtg" "mtg manual"`,
    '.SH NAME',
    `${roff(name)} \\- ${roff(summary)}`,
  ];
}

function manOptions(options: readonly OptionDecl[]): string[] {
  return options.flatMap((o) => {
    const notes = optionNotes(o);
    return [
      '.TP',
      `.B ${roff(o.flags)}`,
      roff(o.description + (notes.length ? ` (${notes.join('; ')})` : '')),
    ];
  });
}

function preformatted(text: string): string[] {
  return ['.PP', '.nf', '.RS 4', roff(text.trimEnd()), '.RE', '.fi'];
}

function manPageName(words: string[]): string {
  return `mtg-${words.join('-')}`;
}

function commandMan(cmd: DocCommand, all: DocCommand[]): string {
  const name = manPageName(cmd.words);
  const lines = [...manHeader(name, 1, cmd.summary), '.SH SYNOPSIS', `.B ${roff(usage(cmd))}`];
  if (cmd.spellings.length)
    lines.push('.PP', `Also: ${roff(cmd.spellings.map((s) => `mtg ${s}`).join(', '))}`);
  lines.push('.SH DESCRIPTION', roff(cmd.description));
  if (cmd.args.length) {
    lines.push('.SH ARGUMENTS');
    for (const a of cmd.args) lines.push('.TP', `.B ${roff(argTerm(a))}`, roff(a.description));
  }
  lines.push(
    '.SH OPTIONS',
    ...manOptions(cmd.options),
    ...manOptions(
      ROOT_OPTIONS.filter(
        (o) =>
          o !== VERSION_OPTION && (!COMMON_OPTIONS.includes(o as never) || commonOptionsOf(cmd).includes(o)),
      ),
    ),
  );
  if (cmd.examples.length) lines.push('.SH EXAMPLES', ...preformatted(cmd.examples.join('\n')));
  const siblings = all.filter((c) => c !== cmd && c.words[0] === cmd.words[0] && cmd.words.length > 1);
  const see = ['mtg(1)', ...siblings.map((c) => `${manPageName(c.words)}(1)`)];
  lines.push('.SH SEE ALSO', roff(see.join(', ')), '');
  return lines.join('\n');
}

function rootMan(all: DocCommand[]): string {
  const topic = (name: string) => HELP_TOPICS.find((t) => t.name === name);
  const lines = [
    ...manHeader('mtg', 1, 'the Meeting Notes Service from the command line'),
    '.SH SYNOPSIS',
    '.B mtg',
    '.I command',
    '[options]',
    '.br',
    '.B mtg help',
    '[\\fIcommand\\fR|\\fItopic\\fR]',
    '.SH DESCRIPTION',
    roff(
      'Work with the Meeting Notes Service from the command line: meetings, notes, action items, tags, ' +
        'people and companies, through its API or from a local mirror (mtg sync). Data goes to stdout ' +
        '(table on a terminal, tsv in a pipe, or --format json|ndjson|csv|tsv), everything else to stderr. ' +
        'mtg sandbox serves the whole API locally, to try every command without an account.',
    ),
    '.SH COMMANDS',
  ];
  for (const c of all)
    lines.push(
      '.TP',
      `.B ${roff(['mtg', ...c.words].join(' '))}`,
      `${roff(c.summary)}; see ${roff(manPageName(c.words))}(1).`,
    );
  lines.push('.SH OPTIONS', ...manOptions(ROOT_OPTIONS));
  lines.push(
    '.PP',
    roff('The output, list and network options are described in the page of each command that takes them.'),
  );
  lines.push('.SH HELP TOPICS', roff('mtg help TOPIC prints each of these.'));
  for (const t of HELP_TOPICS) {
    if (t.name === 'exit-codes' || t.name === 'environment') continue;
    lines.push(`.SS ${roff(t.name)}`, ...preformatted(t.text));
  }
  const exitCodes = topic('exit-codes');
  const environment = topic('environment');
  if (environment) lines.push('.SH ENVIRONMENT', ...preformatted(environment.text));
  if (exitCodes) lines.push('.SH EXIT STATUS', ...preformatted(exitCodes.text));
  lines.push('.SH SEE ALSO', roff(all.map((c) => `${manPageName(c.words)}(1)`).join(', ')), '');
  return lines.join('\n');
}

/** Every generated file, by its path from the repository's root (docs/commands/…, man/…). */
export function generateDocs(tree: TreeNode[]): Map<string, string> {
  const all = pages(tree);
  const commands = all.flatMap((p) => p.commands);
  const files = new Map<string, string>();
  files.set('docs/commands/README.md', indexMarkdown(all));
  for (const page of all) files.set(`docs/commands/${page.file}`, pageMarkdown(page));
  for (const topic of HELP_TOPICS) files.set(`docs/commands/topics/${topic.name}.md`, topicMarkdown(topic));
  files.set('man/mtg.1', rootMan(commands));
  for (const c of commands) files.set(`man/${manPageName(c.words)}.1`, commandMan(c, commands));
  return files;
}

/** The folders generateDocs() owns: a file there that it does not write is stale. */
export const GENERATED_DIRS = ['docs/commands', 'man'] as const;
