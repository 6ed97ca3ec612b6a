// Build time only (scripts/build.mjs bundles and runs this to write dist/help.json): the help of
// every command, from the same program main.ts builds (same tree, same buildProgram).

import { commandTree } from '../commands/index.js';
import { VERSION } from './context.js';
import { type HelpTexts, renderHelpTexts } from './help-texts.js';
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
  return renderHelpTexts(program, () => {
    const text = written;
    written = '';
    return text;
  });
}
