// Help texts rendered at build time (scripts/build.mjs writes them to dist/help.json), so that
// `mtg <group> <command> --help` is answered by src/cli/entry.ts without loading commander or the
// command tree (bench figure a). They come from the very program main.ts builds (buildProgram with
// the same tree) through commander's own outputHelp(), and help does not depend on the terminal
// (program.ts fixes the width at 80 columns), so the stored text is byte for byte what commander
// prints. entry.ts reads them (the lookup lives there, so that the start-up file imports nothing).

/** What dist/help.json holds. */
export interface HelpTexts {
  /** `mtg` with no arguments (main.ts prints helpInformation(): commander's text, no examples). */
  bare: string;
  /** Canonical command path ("" for the root, "action-items list") -> what `<path> --help` prints. */
  texts: Record<string, string>;
  /** Every spelling of a command path, aliases included ("ai ls") -> its canonical path. */
  paths: Record<string, string>;
  /** `mtg help TOPIC` (help-topics.ts) -> its text. */
  topics: Record<string, string>;
}

/**
 * The help topics, in the order `mtg help` lists them. The names live here (this file imports
 * nothing, so program.ts and completion.ts can name them without loading the texts), the texts in
 * help-topics.ts; both the help fast path (dist/help.json) and `npm run docs` print those texts.
 */
export const HELP_TOPIC_NAMES = ['exit-codes', 'environment', 'formats', 'dates', 'mirror', 'mcp'] as const;
export type HelpTopicName = (typeof HELP_TOPIC_NAMES)[number];

/** What `mtg help WORDS...` prints: to stdout, to stderr, and the exit code. */
export interface HelpAnswer {
  out: string;
  err: string;
  code: number;
}

/**
 * `mtg help WORDS...` (one word or more): a topic, else a command path (names or aliases, as for
 * `WORDS --help`), else exit 2 naming the topics. Undefined when a word is an option or not a plain
 * word (commander judges those). Shared by the fast path (entry.ts, from dist/help.json) and the
 * CLI (main.ts, from texts rendered on the spot), so both answer alike.
 */
export function answerHelpWords(words: string[], help: HelpTexts): HelpAnswer | undefined {
  if (words.length === 0 || words.some((w) => w === '' || w.startsWith('-') || /\s/.test(w)))
    return undefined;
  const [first] = words;
  if (words.length === 1 && first !== undefined && Object.hasOwn(help.topics, first)) {
    const text = help.topics[first];
    if (typeof text === 'string') return { out: text, err: '', code: 0 };
  }
  const path = words.join(' ');
  const key = Object.hasOwn(help.paths, path) ? help.paths[path] : undefined;
  const text = key !== undefined && Object.hasOwn(help.texts, key) ? help.texts[key] : undefined;
  if (typeof text === 'string') return { out: text, err: '', code: 0 };
  const topics = Object.keys(help.topics).join(', ');
  // Typed by the user, echoed to a terminal: no control character goes through.
  const shown = path.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  const err =
    `mtg: no help topic or command "${shown}"\n` +
    `Topics: ${topics} (mtg help TOPIC); commands: mtg --help\n`;
  return { out: '', err, code: 2 };
}

/** The commander surface the renderer needs (kept structural so this file imports nothing). */
export interface HelpCommand {
  name(): string;
  aliases(): string[];
  readonly commands: readonly HelpCommand[];
  outputHelp(): void;
  helpInformation(): string;
}

/**
 * Render every command's help. `captured()` returns and clears what the program wrote to its
 * stdout (the program must be built with a writeOut that records).
 */
export function renderHelpTexts(program: HelpCommand, captured: () => string): HelpTexts {
  const result: HelpTexts = { bare: program.helpInformation(), texts: {}, paths: {}, topics: {} };
  const visit = (cmd: HelpCommand, canonical: string[], spellings: string[][]): void => {
    const key = canonical.join(' ');
    captured();
    cmd.outputHelp(); // exactly what the --help option does (commander's _outputHelpIfRequested)
    result.texts[key] = captured();
    for (const spelling of spellings) result.paths[spelling.join(' ')] = key;
    for (const sub of cmd.commands) {
      const names = [sub.name(), ...sub.aliases()];
      visit(
        sub,
        [...canonical, sub.name()],
        spellings.flatMap((prefix) => names.map((n) => [...prefix, n])),
      );
    }
  };
  visit(program, [], [[]]);
  return result;
}
