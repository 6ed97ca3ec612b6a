// The standalone binary's main script (scripts/build-binary.mjs bundles it with entry.ts; the CLI
// itself is an asset of the binary, loaded by sea-load.ts). It is node itself, so the one child mtg
// starts with `process.execPath` — the credential store's helper, `node -e HELPER ARGS...`
// (src/config/keychain.ts) — arrives here as `mtg -e HELPER ARGS...`: run it as node would (its
// argv after the code, and a require() that loads files: @napi-rs/keyring beside the binary).
// Anything else is mtg's own command line (src/cli/entry.ts: --version and help from help.json,
// the CLI for the rest).
import { createRequire } from 'node:module';

const [, , flag, code] = process.argv;
if (flag === '-e' && typeof code === 'string') {
  process.argv = [process.argv[0]!, ...process.argv.slice(4)];
  new Function('require', code)(createRequire(process.execPath));
} else {
  require('./entry.js');
}
