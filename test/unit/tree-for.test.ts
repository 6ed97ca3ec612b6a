import { describe, expect, it } from 'vitest';
import { treeFor } from '../../src/cli/program.js';
import { commandTree } from '../../src/commands/index.js';

const paths = (tree: ReturnType<typeof treeFor>) =>
  tree.flatMap((n) => ('commands' in n ? n.commands.map((c) => `${n.name} ${c.name}`) : [n.name]));

// run() builds commander's program from treeFor's part of the tree: the command a line names, or
// the whole tree whenever commander may need the rest (help, suggestions, a group alone).
describe('the command tree commander builds for a command line', () => {
  it('is the one command that the first words name, by name or alias', () => {
    expect(paths(treeFor(['find', 'budget', '--json'], commandTree))).toEqual(['find']);
    expect(paths(treeFor(['meetings', 'list', '--offline'], commandTree))).toEqual(['meetings list']);
    const group = commandTree.find((n) => 'commands' in n && (n.aliases ?? []).length > 0);
    if (group && 'commands' in group) {
      const cmd = group.commands[0]!;
      expect(paths(treeFor([group.aliases![0]!, cmd.name], commandTree))).toEqual([
        `${group.name} ${cmd.name}`,
      ]);
    }
  });

  it('is the whole tree for anything else', () => {
    const all = paths(commandTree);
    expect(all.length).toBeGreaterThan(20);
    for (const argv of [
      [],
      ['--json', 'find', 'x'],
      ['meetings'],
      ['meetings', 'lst'],
      ['help', 'find'],
      ['fnd'],
    ])
      expect(paths(treeFor(argv, commandTree))).toEqual(all);
  });
});
