// `mtg help TOPIC` prints the topic (exit 0) from the start-up file's stored texts, through the CLI
// (MTG_NO_HELP_CACHE=1) and in-process alike; an unknown topic is exit 2 naming the topics; `mtg help
// COMMAND...` is that command's --help; the root help lists the topics.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/cli/context.js';
import { HELP_TOPIC_NAMES } from '../../src/cli/help-texts.js';
import { HELP_TOPICS } from '../../src/cli/help-topics.js';
import { runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

const PATHS = [
  ['fast path', {}],
  ['commander', { MTG_NO_HELP_CACHE: '1' }],
] as const;

describe('mtg help TOPIC', () => {
  it('has a text for every topic name, in the listed order', () => {
    expect(HELP_TOPICS.map((t) => t.name)).toEqual([...HELP_TOPIC_NAMES]);
  });

  it.each(HELP_TOPICS.map((t) => [t.name, t.text] as const))(
    '%s fits 80 columns, no trailing blanks',
    (_, text) => {
      for (const line of text.split('\n')) {
        expect(line.length, line).toBeLessThanOrEqual(80);
        expect(line, line).not.toMatch(/\s$/);
      }
    },
  );

  for (const [label, env] of PATHS) {
    it(`prints each topic, exit 0 (${label})`, async () => {
      for (const topic of HELP_TOPICS) {
        const r = await runCli(['help', topic.name], { env });
        expect(r.stderr).toBe('');
        expect(r.stdout).toBe(topic.text);
        expect(r.code).toBe(0);
      }
    });

    it(`an unknown topic is exit 2 naming the topics, nothing on stdout (${label})`, async () => {
      const r = await runCli(['help', 'exit-code'], { env });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('no help topic or command "exit-code"');
      for (const name of HELP_TOPIC_NAMES) expect(r.stderr).toContain(name);
    });

    it(`mtg help COMMAND... prints that command's --help (${label})`, async () => {
      const [viaHelp, viaFlag, viaAlias] = await Promise.all([
        runCli(['help', 'meetings', 'list'], { env }),
        runCli(['meetings', 'list', '--help'], { env }),
        runCli(['help', 'meeting', 'ls'], { env }),
      ]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toContain('Usage: mtg meetings list');
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
      expect(viaAlias.stdout).toBe(viaFlag.stdout);
    });
  }

  it('answers the same in-process (run())', async () => {
    const topic = await runInProcess(['help', 'environment']);
    expect(topic).toMatchObject({ code: 0, stderr: '' });
    expect(topic.stdout).toContain('MTG_API_KEY');
    const unknown = await runInProcess(['help', 'no-such-topic']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('exit-codes, environment, formats, dates, mirror, mcp');
  });

  // Global options before or after the words change nothing: the same topic lookup answers
  // (the start-up file leaves these to the CLI; both must agree with `mtg help WORDS`).
  it.each([
    [['--no-color', 'help', 'exit-codes'], 'exit-codes'],
    [['-q', 'help', 'mcp'], 'mcp'],
    [['help', 'exit-codes', '--no-color'], 'exit-codes'],
    [['--profile', 'x', 'help', 'dates'], 'dates'],
    [['--format=json', 'help', 'formats', '-q'], 'formats'],
  ])('%j prints the topic %s, exit 0', async (argv, name) => {
    const text = HELP_TOPICS.find((t) => t.name === name)?.text;
    const [spawned, inProcess] = await Promise.all([runCli(argv), runInProcess(argv)]);
    for (const r of [spawned, inProcess]) expect(r).toMatchObject({ code: 0, stdout: text, stderr: '' });
  });

  it('--version and --help beside `help WORDS` keep their meaning', async () => {
    const [version, help] = await Promise.all([
      runInProcess(['--version', 'help', 'exit-codes']),
      runInProcess(['help', 'dates', '--help']),
    ]);
    expect(version).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    expect(help.code).toBe(0);
    expect(help.stdout).not.toBe(HELP_TOPICS.find((t) => t.name === 'dates')?.text);
  });

  it('an unknown topic after a global option is exit 2 naming the topics', async () => {
    const argv = ['--profile', 'x', 'help', 'nosuch'];
    const [spawned, inProcess] = await Promise.all([runCli(argv), runInProcess(argv)]);
    for (const r of [spawned, inProcess]) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('no help topic or command "nosuch"');
    }
  });

  it("a command path after a global option is that command's --help", async () => {
    const [viaHelp, viaFlag] = await Promise.all([
      runInProcess(['--no-color', 'help', 'meetings', 'list']),
      runCli(['meetings', 'list', '--help']),
    ]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
  });

  // `mirror` and `mcp` are topics and commands: `mtg help NAME` is the topic, which says at once
  // where the command's own options are.
  it.each(['mirror', 'mcp'])("the %s topic points to the command's --help in its first lines", (name) => {
    const text = HELP_TOPICS.find((t) => t.name === name)?.text ?? '';
    expect(text.split('\n').slice(0, 4).join('\n')).toContain(`mtg ${name} --help`);
  });

  it('does not echo control characters of an unknown word', async () => {
    const r = await runCli(['help', 'x\u001b[31my']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('\u001b');
  });

  it('the root help lists the topics', async () => {
    const r = await runCli(['--help']);
    expect(r.stdout).toContain('Help topics (mtg help TOPIC):');
    expect(r.stdout).toContain(HELP_TOPIC_NAMES.join(', '));
  });

  it('the environment topic names every MTG_ variable the code reads', async () => {
    const { execFileSync } = await import('node:child_process');
    const found = execFileSync(
      'grep',
      ['-rhoE', 'env\\.MTG_[A-Z_]+', join(import.meta.dirname, '..', '..', 'src')],
      {
        encoding: 'utf8',
      },
    );
    const names = new Set(
      found
        .split('\n')
        .filter(Boolean)
        .map((s) => s.slice(4)),
    );
    const text = HELP_TOPICS.find((t) => t.name === 'environment')?.text ?? '';
    for (const name of names) expect(text, name).toContain(name);
  });

  it('bash completion offers the topics (and the commands) after `mtg help`', () => {
    const script = join(import.meta.dirname, '..', '..', 'completions', 'mtg.bash');
    const harness =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash code, not a JavaScript template
      'source "$1"; COMP_WORDS=(mtg help "$2"); COMP_CWORD=2; COMP_LINE="mtg help $2"; COMP_POINT=${#COMP_LINE}; _mtg; printf "%s\\n" "${COMPREPLY[@]}"';
    const complete = (word: string) =>
      spawnSync('bash', ['--norc', '--noprofile', '-c', harness, 'bash', script, word], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
    expect(complete('')).toEqual(expect.arrayContaining([...HELP_TOPIC_NAMES, 'meetings', 'sync']));
    expect(complete('ex')).toEqual(['exit-codes', 'export']);
    expect(complete('env')).toEqual(['environment']);
  });
});
