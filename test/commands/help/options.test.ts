// Help says what each command does with what it offers: every text fits 80 columns (group help
// included), a command that sends no request offers no request option (and refuses one, exit 2,
// as it refuses any option it does not honour), each --fields example names the command's own
// fields, and commander's own errors start "mtg:" like every other error. In-process.
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { buildHelpTexts } from '../../../src/cli/help-build.js';
import { type CommandNode, isGroup } from '../../../src/cli/spec.js';
import { commandTree } from '../../../src/commands/index.js';
import { runInProcess } from '../../helpers/inprocess.js';

const texts = buildHelpTexts();
const commands: [string, CommandNode][] = commandTree.flatMap((node) =>
  isGroup(node)
    ? node.commands.map((spec): [string, CommandNode] => [`${node.name} ${spec.name}`, spec])
    : [[node.name, node]],
);
// Nothing listens here: a command that sent anything would fail with exit 1, not 2.
const env = { MTG_BASE_URL: 'http://127.0.0.1:9', MTG_API_KEY: 'k_test' };

describe('help texts', () => {
  it('every line of every help text fits 80 columns (groups too, and every example line)', () => {
    const all = Object.entries({ '': texts.bare, ...texts.texts });
    expect(all.length).toBeGreaterThan(commands.length);
    const tooWide: string[] = [];
    for (const [path, text] of all) {
      expect(text, path).toMatch(/\S/);
      for (const line of text.split('\n'))
        if (stringWidth(line) > 80) tooWide.push(`mtg ${path} --help: ${line}`);
    }
    expect(tooWide).toEqual([]);
  });

  // The commands that never send a request (the local mirror, settings, the sandbox itself).
  const LOCAL = [
    'auth logout',
    'changes',
    'completion',
    'config get',
    'config set',
    'config unset',
    'config list',
    'find',
    'mirror status',
    'mirror reset',
    'sandbox',
    'sql',
  ];

  it('a command that sends no request offers no request option', () => {
    for (const path of LOCAL) {
      const help = texts.texts[path];
      expect(help, path).toBeDefined();
      for (const flag of ['--api-key', '-v, --verbose', '--max-retries', '--timeout', '--max-wait']) {
        // sql's --timeout is its statement's time limit (issue 29), not a request's.
        if (path === 'sql' && flag === '--timeout') continue;
        expect(help, `mtg ${path} --help: ${flag}`).not.toContain(flag);
      }
    }
    expect(texts.texts.sql).toMatch(/--timeout <seconds>\s+time limit of the statement/);
    // Nor a server's address, except where it names the server whose mirror is read.
    for (const path of LOCAL.filter((p) => !['find', 'sql', 'changes'].includes(p))) {
      expect(texts.texts[path], path).not.toContain('--base-url');
      if (path !== 'config set') expect(texts.texts[path], path).not.toContain('--insecure');
    }
    for (const path of ['find', 'sql', 'changes']) expect(texts.texts[path]).toContain('--base-url');
    for (const path of ['meetings list', 'action-items update', 'sync', 'auth login', 'api']) {
      for (const flag of ['--api-key', '-v, --verbose', '--max-retries'])
        expect(texts.texts[path]).toContain(flag);
    }
  });

  it.each([
    [['config', 'list', '--api-key', 'k'], 'config list', '--api-key'],
    [['-v', 'find', 'budget'], 'find', '--verbose'],
    [['sql', 'select 1', '--verbose'], 'sql', '--verbose'],
    [['completion', 'bash', '--base-url', 'http://127.0.0.1:1'], 'completion', '--base-url'],
  ])('mtg %j is refused: exit 2, one line', async (argv, path, flag) => {
    const r = await runInProcess(argv, { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`mtg: mtg ${path} does not take ${flag}\n`);
  });

  it('find, sql and changes say what --limit does there (nothing is fetched)', () => {
    for (const path of ['find', 'sql', 'changes']) {
      expect(texts.texts[path]).not.toMatch(/fetching pages/);
      expect(texts.texts[path]?.replace(/\s+/g, ' ')).toContain('the query of the mirror stops there');
    }
    expect(texts.texts['meetings transcript']).not.toMatch(/fetching pages/);
  });
});

/** A value for a required argument that passes its check (nothing is sent before --fields fails). */
function argFor(name: string): string {
  if (/MEETING_ID/.test(name) && !/CALENDAR/.test(name)) return 'mtg_help_probe';
  if (/ID/.test(name)) return '1';
  if (name === 'DOMAIN') return 'acme.example';
  if (name === 'SHELL') return 'bash';
  return 'probe';
}

/** What each command needs besides its arguments to get as far as its --fields check. */
const EXTRA: Record<string, string[]> = {
  'meetings transcript': ['--format', 'json'],
  'meetings share': ['--email', 'ann@acme.example'],
  'action-items update': ['1', '--status', 'done'],
  'tags update': ['--name', 'probe'],
  'tags apply': ['mtg_help_probe'],
  'calendar set-notes': ['--notes', 'probe'],
};
// Their fields are not a resource's: the statement's columns (sql), the stored settings (config list).
const OPEN = new Set(['sql', 'config list']);

describe('--fields examples name the command’s own fields', () => {
  for (const [path, spec] of commands) {
    const help = texts.texts[path] ?? '';
    const example = /choose and order fields, e\.g\. ([\w.,]+)/.exec(help.replace(/\s+/g, ' '))?.[1];
    if (example === undefined || OPEN.has(path)) continue;
    it(`mtg ${path}: --fields ${example}`, async () => {
      const args = [
        ...(spec.args ?? []).filter((a) => a.required).map((a) => argFor(a.name)),
        ...(EXTRA[path] ?? []),
      ];
      // One field that no view has: the error then names it alone, so every field of the example is valid.
      const r = await runInProcess([...path.split(' '), ...args, '--fields', `${example},zz_probe`], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^mtg: unknown field for [\w ]+: zz_probe;/);
    });
  }
});

describe('errors start with "mtg:"', () => {
  it.each([
    [['meetings', 'list', '--bogus'], "mtg: unknown option '--bogus'"],
    [['meetings', 'lst'], "mtg: unknown command 'lst'"],
    [['meetings', 'view'], "mtg: missing required argument 'MEETING_ID'"],
    [['meetings', 'view', 'a', 'b'], 'mtg: too many arguments'],
    [['meetings', 'list', '--format', 'xml'], 'mtg: '],
  ])('mtg %j', async (argv, start) => {
    const r = await runInProcess(argv, { env });
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(start), r.stderr).toBe(true);
    expect(r.stderr).not.toMatch(/^error:/m);
  });
});
