#!/usr/bin/env node
// Thin launcher, CommonJS (bin/package.json): dist/mtg.cjs answers --version and help, and requires
// the CLI (dist/cli.cjs, CommonJS too) for everything else; node's ES module loader is never set up.
let entry;
try {
  entry = require.resolve('../dist/mtg.cjs');
} catch {
  // A clone run before its first build: one line, not a MODULE_NOT_FOUND stack.
  process.stderr.write(
    `mtg: ${require('node:path').join(__dirname, '..')} is not built: run \`npm run build\` there first\n`,
  );
  process.exit(1);
}
require(entry);
