// The credential-store tests (test/keyring/): they need a real Secret Service on a private session
// bus, so only test/keyring/run-private-bus.sh runs them (.ci/run does), never `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/keyring/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
