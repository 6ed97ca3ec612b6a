#!/usr/bin/env node
// Thin launcher: everything lives in the one bundled file so start-up stays close to bare `node`.
import '../dist/mtg.js';
