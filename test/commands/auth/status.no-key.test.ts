// `mtg auth status` with no key anywhere (issue #20, 5): exit 3, one line saying so and how to set one.
import { describe, expect } from 'vitest';
import { sandboxTest } from '../../helpers/fixtures.js';
import { runInProcess } from '../../helpers/inprocess.js';

const test = sandboxTest({ limits: 'none' });

describe('auth status with nothing configured', () => {
  test('exits 3 with one line on stderr saying no key is set and how to set one', async ({
    sandbox,
    configDir,
  }) => {
    const r = await runInProcess(['auth', 'status'], {
      env: { MTG_CONFIG_DIR: configDir, MTG_BASE_URL: sandbox.baseUrl },
    });
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^mtg: No API key for profile "default".*mtg auth login.*MTG_API_KEY/);
  });
});
