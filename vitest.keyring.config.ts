// The credential-store tests (test/keyring/): they need a real Secret Service on a private session
// bus, so only test/keyring/run-private-bus.sh runs them (.ci/run does), never `npm test`. Like
// `npm test`, the run has its own temp folder that must be empty at the end, and each file's temp
// folders are removed after it (test/helpers/temp-root.ts, test/helpers/cleanup.ts).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/keyring/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['test/helpers/cleanup.ts'],
    globalSetup: ['test/helpers/temp-root.ts'],
  },
});
