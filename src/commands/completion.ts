// mtg completion bash|zsh|fish: print a completion script generated from the command tree. The
// generator and the tree are loaded inside run(), so neither costs anything at start-up.

import type { Shell } from '../cli/completion.js';
import { GLOBAL_OPTIONS } from '../cli/globals.js';
import { oneOf } from '../cli/input.js';
import type { CommandSpec } from '../cli/spec.js';

const SHELL_NAMES: readonly Shell[] = ['bash', 'zsh', 'fish'];

export const completionCommand: CommandSpec = {
  name: 'completion',
  summary: 'Print a shell completion script (bash, zsh or fish)',
  description:
    'Print a completion script for your shell to stdout: groups, commands, options and their values ' +
    '(--format, --status, ...). Save it where your shell loads completions (see the examples); the ' +
    'script is static, so TAB never starts node.',
  args: [{ name: 'SHELL', description: 'bash, zsh or fish', required: true, choices: SHELL_NAMES }],
  examples: [
    'mtg completion bash > ~/.local/share/bash-completion/completions/mtg',
    'mtg completion zsh > ~/.zfunc/_mtg    # with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc',
    'mtg completion fish > ~/.config/fish/completions/mtg.fish',
  ],
  async run(ctx, args) {
    const shell = oneOf(String(args.SHELL), SHELL_NAMES, 'shell');
    const [{ completionScript }, { commandTree }] = await Promise.all([
      import('../cli/completion.js'),
      import('./index.js'),
    ]);
    ctx.io.out.write(completionScript(shell, commandTree, GLOBAL_OPTIONS));
    return 0;
  },
};
