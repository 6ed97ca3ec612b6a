// --jq belongs to the run that was given it (the output plan carries it): two runs in one process
// at once (an in-process caller, a long-running server) never filter each other's output.
import type { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { testIO } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

// Nothing is sent: a dry run, and a body that never comes. The port is one nothing listens on.
const env = () => ({ MTG_CONFIG_DIR: tempConfigDir(), MTG_API_KEY: 'k', MTG_BASE_URL: 'http://127.0.0.1:9' });

describe('--jq in one run of two at once', () => {
  it("filters that run's output only", async () => {
    const alone = await runInProcess(['tags', 'create', 'x', '--dry-run', '--json'], { env: env() });
    expect(alone.code).toBe(0);
    expect(JSON.parse(alone.stdout)).toEqual([{ method: 'POST', path: '/tag', body: { name: 'x' } }]);
    const filtered = await runInProcess(['tags', 'create', 'x', '--dry-run', '--jq', '.[0].body.name'], {
      env: env(),
    });
    expect(filtered).toMatchObject({ code: 0, stdout: 'x\n' });

    // A run with --jq that waits for its request body on stdin: its --jq is set up by then.
    const withJq = testIO({ tty: true });
    const stdin = withJq.in as unknown as PassThrough;
    const first = run(['api', '-X', 'POST', '/tags', '--input', '-', '--jq', '.name'], withJq, env());
    for (let i = 0; i < 500 && stdin.readableFlowing !== true && stdin.listenerCount('readable') === 0; i++) {
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(stdin.readableFlowing === true || stdin.listenerCount('readable') > 0).toBe(true);

    const meanwhile = await runInProcess(['tags', 'create', 'x', '--dry-run', '--json'], { env: env() });
    expect(meanwhile).toEqual(alone);

    stdin.end();
    expect(await first).toBe(2); // an empty body: nothing is sent
    expect(withJq.stderr()).toMatch(/--input - \(stdin\) is empty/);
  });
});
