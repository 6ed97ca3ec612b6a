// mtg completion bash|zsh|fish: print a completion script generated from the command tree.

import { completionScript } from '../../cli/completion.js';
import { COMMON_OPTIONS, SET_OPTIONS } from '../../cli/globals.js';
import { oneOf } from '../../cli/input.js';
import { defineRun } from '../../cli/spec.js';
import { ExitCode } from '../../shared/errors.js';
import * as spec from './spec.js';

export const run = defineRun(spec.completion, async (ctx, args) => {
  const shell = oneOf(args.SHELL, spec.SHELL_NAMES, 'shell');
  ctx.io.out.write(completionScript(shell, ctx.commandTree, COMMON_OPTIONS, SET_OPTIONS));
  return ExitCode.ok;
});
