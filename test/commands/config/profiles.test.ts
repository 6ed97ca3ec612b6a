// `mtg config set|get|unset` with profiles, in-process: MTG_PROFILE and --profile choose one; the
// environment overrides the config file.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { sandboxTest } from '../../helpers/fixtures.js';
import { runInProcess } from '../../helpers/inprocess.js';

const test = sandboxTest({ pageSize: 7, limits: '1000/1s' });

describe('config profiles', () => {
  test('profiles are separate and MTG_PROFILE / --profile choose one; env overrides config', async ({
    configDir: dir,
  }) => {
    const env = { MTG_CONFIG_DIR: dir };
    expect(
      (
        await runInProcess(['config', 'set', 'base-url', 'https://work.example.com', '--profile', 'work'], {
          env,
        })
      ).code,
    ).toBe(0);
    expect(
      (await runInProcess(['config', 'set', 'base-url', 'https://home.example.com'], { env })).code,
    ).toBe(0);
    expect((await runInProcess(['config', 'get', 'base-url'], { env })).stdout.trim()).toBe(
      'https://home.example.com',
    );
    expect(
      (
        await runInProcess(['config', 'get', 'base-url'], { env: { ...env, MTG_PROFILE: 'work' } })
      ).stdout.trim(),
    ).toBe('https://work.example.com');
    const status = await runInProcess(['auth', 'status', '--json', '--profile', 'work'], {
      env: { ...env, MTG_BASE_URL: 'https://env.example.com' },
    });
    expect(JSON.parse(status.stdout)).toMatchObject({
      profile: 'work',
      baseUrl: 'https://env.example.com',
      baseUrlSource: 'env',
    });
    const unset = await runInProcess(['config', 'unset', 'base-url', '--profile', 'work'], { env });
    expect(unset.code).toBe(0);
    expect((await runInProcess(['config', 'get', 'base-url', '--profile', 'work'], { env })).code).toBe(1);
    expect((await runInProcess(['config', 'set', 'colour', 'x'], { env })).code).toBe(2);
  });

  test('"__proto__" is refused as a profile name, from --profile or MTG_PROFILE: exit 2, one line, nothing stored or sent', async ({
    sandbox,
    configDir: dir,
  }) => {
    const before = sandbox.requests.length;
    const runs: [string[], Record<string, string>, RegExp][] = [
      [
        ['config', 'set', 'base-url', 'https://x.example.com', '--profile', '__proto__'],
        {},
        /^mtg: --profile "__proto__"/,
      ],
      [['config', 'get', 'base-url', '--profile', '__proto__'], {}, /--profile "__proto__"/],
      [
        ['config', 'set', 'base-url', 'https://x.example.com'],
        { MTG_PROFILE: '__proto__' },
        /^mtg: MTG_PROFILE "__proto__"/,
      ],
      [
        ['auth', 'login', '--base-url', sandbox.baseUrl, '--profile', '__proto__'],
        {},
        /--profile "__proto__"/,
      ],
    ];
    for (const [argv, extra, message] of runs) {
      const r = await runInProcess(argv, {
        env: { MTG_CONFIG_DIR: dir, ...extra },
        stdin: `${sandbox.apiKey}\n`,
      });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('choose another name');
    }
    expect(sandbox.requests.length).toBe(before);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  test('names every object has ("constructor", "toString") are ordinary profiles: stored, read back, empty until set', async ({
    configDir: dir,
  }) => {
    const env = { MTG_CONFIG_DIR: dir };
    for (const name of ['constructor', 'toString']) {
      const unset = await runInProcess(['config', 'get', 'base-url', '--profile', name], { env });
      expect(unset.code).toBe(1);
      const set = await runInProcess(
        ['config', 'set', 'base-url', `https://${name}.example.com`, '--profile', name],
        { env },
      );
      expect(set.code, set.stderr).toBe(0);
      const got = await runInProcess(['config', 'get', 'base-url', '--profile', name], { env });
      expect(got.stdout.trim()).toBe(`https://${name}.example.com`);
    }
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles)).toEqual([
      'constructor',
      'toString',
    ]);
  });
});
