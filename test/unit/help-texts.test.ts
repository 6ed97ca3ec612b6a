// The build-time renderer of dist/help.json (src/cli/help-texts.ts): one text per command, every
// spelling of every path (aliases of groups and of commands) mapped to it.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { renderHelpTexts } from '../../src/cli/help-texts.js';

function sample() {
  let written = '';
  const program = new Command('x').configureOutput({ writeOut: (s) => (written += s) });
  const group = program.command('things').alias('thing').description('things');
  group.command('list').alias('ls').description('list things');
  group.command('show').description('show a thing');
  program.command('solo').description('alone');
  program.addHelpText('after', '\nEXAMPLES\n');
  const captured = () => {
    const text = written;
    written = '';
    return text;
  };
  return { program, captured };
}

describe('renderHelpTexts', () => {
  const { program, captured } = sample();
  const help = renderHelpTexts(program, captured);

  it('maps every spelling to its canonical path', () => {
    expect(help.paths).toEqual({
      '': '',
      things: 'things',
      thing: 'things',
      'things list': 'things list',
      'things ls': 'things list',
      'thing list': 'things list',
      'thing ls': 'things list',
      'things show': 'things show',
      'thing show': 'things show',
      solo: 'solo',
    });
  });

  it('stores what --help prints (with the "after" text), and helpInformation() for the bare root', () => {
    expect(help.texts['']).toBe(`${program.helpInformation()}\nEXAMPLES\n\n`); // commander adds a newline
    expect(help.bare).toBe(program.helpInformation());
    expect(help.texts['things list']).toContain('list things');
    expect(Object.keys(help.texts).sort()).toEqual(['', 'solo', 'things', 'things list', 'things show']);
  });
});
