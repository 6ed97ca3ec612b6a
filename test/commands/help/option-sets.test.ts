// The option sets (output, list, network): each command's --help shows the sets it honours and no
// other, a set option given to a command that ignores it is exit 2 before any request, and a
// command that honours an option takes it before or after the command words alike.
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';

let sandbox: Sandbox;
/** Counts every request it gets (answers 500): nothing may reach it from a refused command. */
let counter: Server;
let counted = 0;
let counterUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: 'none', pageSize: 10 });
  counter = createServer((_req, res) => {
    counted++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
  counterUrl = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise((resolve) => counter?.close(resolve));
});

describe('--help shows the options a command honours', () => {
  it('a list command shows --limit and --checkpoint (and the output and network sets)', async () => {
    const { code, stdout } = await runInProcess(['action-items', 'list', '--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--limit <n>',
      '--checkpoint <file>',
      '--format <format>',
      '-o, --output',
      '--timeout',
    ]) {
      expect(stdout).toContain(flag);
    }
  });

  it('`auth status` shows no list option, `auth logout` no set at all', async () => {
    const status = await runInProcess(['auth', 'status', '--help']);
    expect(status.code).toBe(0);
    expect(status.stdout).not.toContain('--limit');
    expect(status.stdout).not.toContain('--checkpoint');
    expect(status.stdout).toContain('--json');
    const logout = await runInProcess(['auth', 'logout', '--help']);
    for (const flag of ['--limit', '--format', '--json', '--max-retries', '--output']) {
      expect(logout.stdout).not.toContain(flag);
    }
    expect(logout.stdout).toContain('--profile'); // the common options stay
  });
});

describe('a set option given to a command that does not honour it', () => {
  for (const [path, flag, args] of [
    ['auth status', '--limit', ['auth', 'status', '--limit', '3']],
    ['auth status', '--limit', ['--limit', '3', 'auth', 'status']],
    ['config list', '--checkpoint', ['config', 'list', '--checkpoint', 'x']],
    ['auth logout', '--timeout', ['auth', 'logout', '--timeout', '5']],
    ['mirror reset', '--json', ['mirror', 'reset', '--json']],
    ['watch', '--limit', ['watch', '--once', '--limit', '2']],
    ['watch', '--fields', ['watch', '--once', '--fields', 'seq,change']],
    // A mirror read sends nothing: --insecure would be accepted and do nothing there.
    ['find', '--insecure', ['find', 'budget', '--insecure']],
    ['sql', '--insecure', ['--insecure', 'sql', 'SELECT 1']],
    ['changes', '--insecure', ['changes', '--insecure']],
  ] as const) {
    it(`mtg ${args.join(' ')}: exit 2, one line naming the option and the command, nothing sent`, async () => {
      const before = counted;
      const { code, stdout, stderr } = await runInProcess([...args], {
        env: { MTG_BASE_URL: counterUrl, MTG_API_KEY: 'k_test' },
      });
      expect(code).toBe(2);
      expect(stdout).toBe('');
      const lines = stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`mtg ${path} does not take ${flag}`);
      expect(counted).toBe(before);
    });
  }
});

describe('a common option a command cannot use is not offered, and is refused like a set option', () => {
  for (const [words, hidden, shown] of [
    [['completion'], ['--offline', '--profile'], ['--quiet']],
    [['sandbox'], ['--offline', '--profile'], ['--quiet']],
    [['auth', 'logout'], ['--offline'], ['--profile']],
    [['config', 'set'], ['--offline'], ['--profile']],
  ] as const) {
    it(`mtg ${words.join(' ')} --help offers no ${hidden.join(', ')}`, async () => {
      const { code, stdout } = await runInProcess([...words, '--help']);
      expect(code).toBe(0);
      for (const flag of hidden) expect(stdout).not.toContain(flag);
      for (const flag of shown) expect(stdout).toContain(flag);
    });
  }

  for (const [path, flag, args] of [
    ['completion', '--offline', ['completion', 'bash', '--offline']],
    ['completion', '--profile', ['--profile', 'work', 'completion', 'bash']],
    ['sandbox', '--profile', ['sandbox', '--profile', 'work']],
    ['sandbox', '--offline', ['--offline', 'sandbox']],
    ['auth logout', '--offline', ['auth', 'logout', '--offline']],
    ['config set', '--offline', ['config', 'set', 'app-url', 'https://app.example.com', '--offline']],
  ] as const) {
    it(`mtg ${args.join(' ')}: exit 2, one line, nothing written`, async () => {
      const config = tempDir('mtg-no-offline-');
      const { code, stdout, stderr } = await runInProcess([...args], {
        env: { MTG_CONFIG_DIR: config, MTG_DATA_DIR: config },
      });
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n')).toEqual([
        expect.stringContaining(`mtg ${path} does not take ${flag}`),
      ]);
      expect(readdirSync(config)).toEqual([]);
    });
  }
});

describe('an empty value of a comma-list option', () => {
  for (const [flag, args] of [
    ['--in', ['find', 'budget', '--in', '']],
    ['--in', ['find', 'budget', '--in', ',']],
    ['--in', ['find', 'budget', '--in', 'transcript,']],
    ['--resource', ['changes', '--resource', '']],
    ['--resource', ['watch', '--once', '--resource', '']],
    ['--only', ['sync', '--only', '']],
    ['--tag', ['meetings', 'list', '--tag', '3,,4']],
    ['--attendee', ['action-items', 'list', '--attendee', '']],
    ['--domain', ['people', 'list', '--domain', ' ']],
    ['--meeting', ['meetings', 'search', 'x', '--meeting', '']],
    ['--email', ['meetings', 'share', 'mtg_1', '--email', 'a@example.com,']],
  ] as const) {
    it(`mtg ${args.map((a) => (a.trim() === '' ? `'${a}'` : a)).join(' ')}: exit 2, one line naming ${flag}, nothing sent or created`, async () => {
      const before = counted;
      const dataDir = tempDir('mtg-empty-list-');
      const { code, stdout, stderr } = await runInProcess([...args], {
        env: { MTG_BASE_URL: counterUrl, MTG_API_KEY: 'k_test', MTG_DATA_DIR: dataDir },
      });
      expect(code, stderr).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(
        new RegExp(`^mtg: ${flag} needs .*values.* separated by commas, none empty; got "`),
      );
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(counted).toBe(before);
      expect(readdirSync(dataDir)).toEqual([]);
    });
  }
});

describe('an honoured option before or after the command words', () => {
  for (const args of [
    ['meetings', 'list', '--limit', '2', '--json'],
    ['--limit', '2', '--json', 'meetings', 'list'],
    ['--limit', '2', 'meetings', 'list', '--json'],
  ]) {
    it(`mtg ${args.join(' ')} prints 2 meetings as json`, async () => {
      const { code, stdout } = await runInProcess(args, { env: sandboxEnv(sandbox) });
      expect(code).toBe(0);
      const meetings = JSON.parse(stdout) as { id: string }[];
      expect(meetings).toHaveLength(2);
    });
  }

  it('--timeout given after the command words still reaches the client (a bad value is exit 2)', async () => {
    const { code, stderr } = await runInProcess(['meetings', 'list', '--timeout', 'soon'], {
      env: sandboxEnv(sandbox),
    });
    expect(code).toBe(2);
    expect(stderr).toContain('--timeout');
  });
});
