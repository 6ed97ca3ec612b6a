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
  const result: HelpTexts = { bare: program.helpInformation(), texts: {}, paths: {} };
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
