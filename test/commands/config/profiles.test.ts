// `mtg config set|get|unset` with profiles, in-process: MTG_PROFILE and --profile choose one; the
// environment overrides the config file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { tempConfigDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, pageSize: 7, limits: '1000/1s' });
});

afterAll(async () => {
  await sandbox.close();
});

describe('config profiles', () => {
  it('profiles are separate and MTG_PROFILE / --profile choose one; env overrides config', async () => {
    const dir = tempConfigDir();
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
});
