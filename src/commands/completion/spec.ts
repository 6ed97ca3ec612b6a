// mtg completion, as data: print a shell completion script generated from the command tree.

import type { Shell } from '../../cli/completion.js';
import { defineCommand } from '../../cli/spec.js';

export const SHELL_NAMES: readonly Shell[] = ['bash', 'zsh', 'fish'];

export const completion = defineCommand({
  name: 'completion',
  // The script is the same for every profile and reads no mirror: neither option could change it.
  without: ['--offline', '--profile'],
  summary: 'Print a shell completion script (bash, zsh or fish)',
  description:
    'Print a completion script for your shell to stdout: groups, commands, options and their values ' +
    '(--format, --status, ...). Save it where your shell loads completions (see the examples); the ' +
    'script is static, so TAB never starts node.',
  args: [{ name: 'SHELL', description: 'bash, zsh or fish', required: true, choices: SHELL_NAMES }],
  examples: [
    'mtg completion bash > ~/.local/share/bash-completion/completions/mtg',
    'mtg completion zsh > ~/.zfunc/_mtg\n# with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc',
    'mtg completion fish > ~/.config/fish/completions/mtg.fish',
  ],
});
