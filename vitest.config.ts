import { defineConfig } from 'vitest/config';

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
    include: ['test/**/*.test.ts'],
    // These need a real Secret Service on a private bus: vitest.keyring.config.ts runs them.
    exclude: ['test/keyring/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A run in its own temp folder that must be empty at the end (test/helpers/temp-root.ts).
    globalSetup: ['test/helpers/temp-root.ts'],
    setupFiles: ['test/helpers/cleanup.ts'],
  },
});
