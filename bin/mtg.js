#!/usr/bin/env node
// Thin launcher, CommonJS (bin/package.json): dist/mtg.cjs answers --version and help, and requires
// the CLI (dist/cli.cjs, CommonJS too) for everything else; node's ES module loader is never set up.
require('../dist/mtg.cjs');
