#!/usr/bin/env node
// Thin launcher, CommonJS (bin/package.json): --version and help are answered without node's ESM
// loader; dist/mtg.cjs imports the ES module bundle for everything else.
require('../dist/mtg.cjs');
