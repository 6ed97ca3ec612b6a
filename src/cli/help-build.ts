// The help of every command, from the same program main.ts builds (same tree, same buildProgram),
// and the help topics: at build time (scripts/build.mjs bundles and runs this to write
// dist/help.json), and in the CLI for `mtg help WORDS...` when the stored texts are not used.

import { commandTree } from '../commands/index.js';
import { VERSION } from './context.js';
import { answerHelpWords, type HelpAnswer, type HelpTexts, renderHelpTexts } from './help-texts.js';
import { helpTopicTexts } from './help-topics.js';
import { buildProgram } from './program.js';

export function buildHelpTexts(): HelpTexts {
  let written = '';
  const record = (s: string) => {
    written += s;
  };
  const program = buildProgram(commandTree, VERSION, async () => undefined, {
    writeOut: record,
    writeErr: record,
  });
  const texts = renderHelpTexts(program, () => {
    const text = written;
    written = '';
    return text;
  });
  return { ...texts, topics: helpTopicTexts() };
}

/** `mtg help WORDS...` answered as the fast path answers it (undefined: for commander). */
export function answerHelpCommand(words: string[]): HelpAnswer | undefined {
  return answerHelpWords(words, buildHelpTexts());
}
