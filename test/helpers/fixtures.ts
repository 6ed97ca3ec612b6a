// vitest fixtures (test.extend) for what most command tests set up: a sandbox for the file, mtg
// run in-process against it with the requests it caused, and a fresh config folder per test. A
// fixture is set up when a test first names it (`async ({ sandbox, mtg }) => …`) and torn down by
// vitest after the file or the test, so a file holds no beforeAll/afterAll of its own for these.
//
//   const test = sandboxTest({ limits: 'none', pageSize: 7 });
//   test('lists', async ({ mtg, sandbox }) => { const r = await mtg(['people', 'list']); … });
import { test as base } from 'vitest';
import {
  type RecordedRequest,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
} from '../../src/sandbox/index.js';
import { tempConfigDir } from './cli.js';
import type { InProcessResult } from './inprocess.js';
import { runRecordedInProcess } from './recorded.js';

export type RecordedRun = InProcessResult & { requests: RecordedRequest[] };

/** mtg in-process against the file's sandbox: what it printed and the requests that reached the sandbox meanwhile. */
export type MtgRun = (
  argv: string[],
  options?: { input?: string; env?: Record<string, string | undefined> },
) => Promise<RecordedRun>;

/** Tests that each get a fresh, empty config folder (`configDir`), removed after the file. */
export const test = base.extend('configDir', async () => tempConfigDir());

/**
 * Tests against one sandbox per file (`sandbox`, started with `options` on a free loopback port
 * when a test first needs it, closed after the file's last test) and `mtg`, which runs mtg
 * in-process against it. `configDir` as in `test`.
 */
export function sandboxTest(options: SandboxOptions) {
  return (
    test
      // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern (none)
      .extend('sandbox', { scope: 'file' }, async ({}, { onCleanup }) => {
        const sandbox = await startSandbox({ port: 0, ...options });
        onCleanup(() => sandbox.close());
        return sandbox;
      })
      .extend(
        'mtg',
        async ({ sandbox }): Promise<MtgRun> =>
          (argv, runOptions) =>
            runRecordedInProcess(sandbox, argv, runOptions),
      )
  );
}

/**
 * Tests that each start the sandboxes they need, each with its own options:
 * `openSandbox(options)` starts one on a free loopback port, closed after the test.
 *
 *   it('paces', async ({ openSandbox }) => { const sb = await openSandbox({ limits: '5/1s' }); … });
 */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern (none)
export const sandboxesTest = test.extend('openSandbox', async ({}, { onCleanup }) => {
  const opened: Sandbox[] = [];
  onCleanup(() => Promise.all(opened.map((s) => s.close())).then(() => undefined));
  return async (options: SandboxOptions): Promise<Sandbox> => {
    const sandbox = await startSandbox({ port: 0, ...options });
    opened.push(sandbox);
    return sandbox;
  };
});
