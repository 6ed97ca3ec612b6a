// mtg completion bash|zsh|fish: print a completion script generated from the command tree.

import { completionScript } from '../../cli/completion.js';
import type { Context } from '../../cli/context.js';
import { GLOBAL_OPTIONS } from '../../cli/globals.js';
import { oneOf } from '../../cli/input.js';
import type { Args } from '../../cli/spec.js';
import { commandTree } from '../index.js';
import { SHELL_NAMES } from './spec.js';

export async function run(ctx: Context, args: Args): Promise<number> {
  const shell = oneOf(String(args.SHELL), SHELL_NAMES, 'shell');
  ctx.io.stdout.write(completionScript(shell, commandTree, GLOBAL_OPTIONS));
  return 0;
}
