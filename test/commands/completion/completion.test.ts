// Shell completion: the committed scripts are what `mtg completion <shell>` prints today (so a new
// command without regenerated files fails here), and the bash script really completes in bash.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionModel } from '../../../src/cli/completion.js';
import { COMMON_OPTIONS, SET_OPTIONS } from '../../../src/cli/globals.js';
import { isGroup } from '../../../src/cli/spec.js';
import { commandTree } from '../../../src/commands/index.js';
import { runInProcess } from '../../helpers/inprocess.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FILES = { bash: 'mtg.bash', zsh: '_mtg', fish: 'mtg.fish' } as const;
const BASH_SCRIPT = join(ROOT, 'completions', FILES.bash);

/** Sets up what readline sets for a completion function, from the words given as arguments. */
const HARNESS =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash code, not a JavaScript template
  'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _mtg; printf "%s\\n" "${COMPREPLY[@]}"';

/**
 * Completes `line` (the cursor at its end) with the committed bash script, the way readline calls
 * it: COMP_WORDS split at blanks and at "=" (bash's COMP_WORDBREAKS), COMP_CWORD the last word.
 */
function bashComplete(line: string): string[] {
  const words = line.split(/\s+|(=)/).filter((w) => w !== undefined && w !== '');
  if (/[\s=]$/.test(line)) words.push('');
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', HARNESS, 'bash', BASH_SCRIPT, ...words], {
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.split('\n').filter(Boolean);
}

describe('mtg completion <shell>', () => {
  for (const [shell, file] of Object.entries(FILES)) {
    it(`completions/${file} is what \`mtg completion ${shell}\` prints (run \`npm run completions\`)`, async () => {
      const { code, stdout, stderr } = await runInProcess(['completion', shell]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(readFileSync(join(ROOT, 'completions', file), 'utf8')).toBe(stdout);
    });
  }

  it('rejects an unknown shell with exit 2 and the valid ones', async () => {
    const { code, stdout, stderr } = await runInProcess(['completion', 'powershell']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/bash, zsh, fish/);
  });

  it('accepts the shell name in any case', async () => {
    const { code, stdout } = await runInProcess(['completion', 'BASH']);
    expect(code).toBe(0);
    expect(stdout).toContain('complete -F _mtg mtg');
  });

  it('every group, alias, command and option of the tree is in every script', () => {
    const scripts = Object.values(FILES).map((f) => readFileSync(join(ROOT, 'completions', f), 'utf8'));
    const model = completionModel(commandTree, COMMON_OPTIONS, SET_OPTIONS);
    const words = new Set<string>();
    for (const node of model.nodes) {
      for (const c of node.children) for (const w of [c.name, ...c.aliases]) words.add(w);
      for (const o of node.options) for (const n of o.names) words.add(n.replace(/^-+/, ''));
    }
    for (const o of model.globals) for (const n of o.names) words.add(n.replace(/^-+/, ''));
    expect(commandTree.some(isGroup)).toBe(true);
    for (const script of scripts) for (const w of words) expect(script, w).toContain(w);
  });

  it("zsh and fish offer a command's own formats and the config keys (bash: below, in bash)", () => {
    const read = (f: string) => readFileSync(join(ROOT, 'completions', f), 'utf8');
    const zsh = read(FILES.zsh);
    expect(zsh).toContain(
      `'meetings transcript|--format') __mtg_kind=choices; reply=('text' 'json' 'ndjson' 'srt' 'vtt' 'md')`,
    );
    expect(zsh).toContain(`'config get|0') reply=('api-key' 'base-url' 'app-url')`);
    const fish = read(FILES.fish);
    expect(fish).toContain(
      `-n '__mtg_at \\'meetings transcript\\'' -l format -x -a 'text json ndjson srt vtt md'`,
    );
    expect(fish).toContain(
      `-n '__mtg_at \\'config get\\'; and __mtg_args_at -eq 0' -a 'api-key base-url app-url'`,
    );
  });
});

describe('the bash script, in bash', () => {
  it('completes groups and their aliases', () => {
    expect(bashComplete('mtg ac')).toEqual(['action-items', 'action-item']);
  });

  it('completes the commands of a group, also through an alias', () => {
    expect(bashComplete('mtg action-items l')).toEqual(['list']);
    expect(bashComplete('mtg action-item u')).toEqual(['update']);
  });

  it("completes a command's options", () => {
    expect(bashComplete('mtg action-items list --st')).toEqual(['--status']);
  });

  it('completes the values of an option declared with choices', () => {
    expect(bashComplete('mtg action-items list --status ')).toEqual(['PENDING', 'DONE', 'ALL']);
    expect(bashComplete('mtg action-items update 4 --status ')).toEqual(['PENDING', 'DONE']);
    expect(bashComplete('mtg action-items list --assignee ')).toEqual([
      'me',
      'not-me',
      'anyone',
      'unassigned',
      'my-workspace',
      'outside-my-workspace',
    ]);
    expect(bashComplete('mtg meetings share m1 --access ')).toEqual(['Viewer', 'Editor']);
    expect(bashComplete('mtg sandbox --plan ')).toEqual(['Free', 'Pro', 'Business', 'Enterprise']);
  });

  it("offers a command's own formats for --format, not the list formats", () => {
    expect(bashComplete('mtg meetings transcript m1 --format ')).toEqual([
      'text',
      'json',
      'ndjson',
      'srt',
      'vtt',
      'md',
    ]);
    expect(bashComplete('mtg api /people --format=')).toEqual(['json', 'ndjson']);
    expect(bashComplete('mtg watch --format ')).toEqual(['ndjson', 'table']);
    expect(bashComplete('mtg sync --format ')).toEqual(['json']);
  });

  it('completes the keys of `mtg config get|set|unset`', () => {
    expect(bashComplete('mtg config get ')).toEqual(['api-key', 'base-url', 'app-url']);
    expect(bashComplete('mtg config set b')).toEqual(['base-url']);
    expect(bashComplete('mtg config set base-url ')).toEqual([]);
  });

  it('completes global options and their values anywhere', () => {
    expect(bashComplete('mtg --format c')).toEqual(['csv']);
    expect(bashComplete('mtg people list --format=n')).toEqual(['ndjson']);
    expect(bashComplete('mtg tags create --qu')).toEqual(['--quiet']);
  });

  it('skips option values while finding the command', () => {
    expect(bashComplete('mtg --format json --limit 3 meeting s')).toEqual(['search', 'show', 'share']);
    expect(bashComplete('mtg --format=csv action-items l')).toEqual(['list']);
  });

  it('completes the shells of `mtg completion`, once', () => {
    expect(bashComplete('mtg completion ')).toEqual(['bash', 'zsh', 'fish']);
    expect(bashComplete('mtg completion bash ')).toEqual([]);
  });

  it('offers nothing for free text and nothing after an unknown word', () => {
    expect(bashComplete('mtg tags create --description ')).toEqual([]);
    expect(bashComplete('mtg nosuch ')).toEqual([]);
  });
});
