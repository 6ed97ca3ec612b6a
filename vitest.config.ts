import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Test files that start the built binary (a real process): signals, EPIPE, the help fast path,
// terminals, the MCP server under a real client, and the examples of the docs.
const BUILT = [
  'test/e2e/**/*.test.ts',
  'test/docs/examples.test.ts',
  'test/docs/help-topics.test.ts',
  'test/sandbox/churn.test.ts',
];
// In-process files that need a module graph of their own: what a process does when it first loads
// a module (node:sqlite's one-time warning), or a module replaced with vi.mock (the in-process
// project's files share their modules: a mock there comes too late, or leaks to the next file).
const FRESH_PROCESS = ['test/mirror/driver.test.ts', 'test/cli/checkpoint-limit.test.ts'];
// These need a real Secret Service on a private bus: vitest.keyring.config.ts runs them.
const EXCLUDED = ['test/keyring/**', '**/node_modules/**'];

export default defineConfig({
  // The export's default template is a .mustache file that the build bundles as text (esbuild's
  // text loader); tests import the same file the same way.
  plugins: [
    {
      name: 'mustache-as-text',
      transform(code, id) {
        return id.endsWith('.mustache')
          ? { code: `export default ${JSON.stringify(code)};`, map: null }
          : undefined;
      },
    },
  ],
  test: {
    // Bounds against a hang, not speed checks: two workers share 2 cores that other runs load too
    // (CI's baseline at load 20 took a demo and a bundle past 30 s while they were still working).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default in a run is one worker fewer than the cores: one on CI's 2, which left a core
    // idle while a file waited on a process or a socket. Every file has its own temp folders, free
    // ports and environment, so files run side by side; VITEST_MAX_WORKERS overrides this (the other
    // Node lines run one file at a time, scripts/node-lines.sh).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ['test/helpers/cleanup.ts'],
    // A CommonJS module's exports as node's import() gives them: jq-web exports a promise, which
    // vitest's default interop wraps into a namespace whose then() throws ("incompatible
    // receiver"), so --jq could not run in-process.
    deps: { interopDefault: false },
    // Two projects, one `vitest run`: the in-process tests run mtg through run(argv, io, env) and
    // need no build; the end-to-end ones start bin/mtg.js, so that project builds dist/ first
    // (test/helpers/build.ts). Each run has its own temp folder that must be empty at the end
    // (test/helpers/temp-root.ts).
    projects: [
      {
        extends: true,
        test: {
          name: 'in-process',
          include: ['test/**/*.test.ts'],
          exclude: [...BUILT, ...FRESH_PROCESS, ...EXCLUDED],
          // A worker keeps the modules it loaded from one file to the next: loading mtg's modules
          // again for each of 160 files was a third of the run's time (import 799 s of 2,010 s in a
          // loaded run; 15 command files took 83 s isolated, 27 s not). The files share no state
          // through those modules: each has its own temp folders, sandboxes, config folder and
          // environment (run(argv, io, env) reads no process.env), and restores what it changes.
          isolate: false,
          globalSetup: ['test/helpers/temp-root.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'in-process-fresh',
          include: FRESH_PROCESS,
          exclude: EXCLUDED,
          globalSetup: ['test/helpers/temp-root.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: BUILT,
          // Real processes, each starting node: under load a test of several takes minutes.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          exclude: EXCLUDED,
          globalSetup: ['test/helpers/temp-root.ts', 'test/helpers/build.ts'],
        },
      },
    ],
  },
});
