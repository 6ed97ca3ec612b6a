// The standalone binary's main script (scripts/build-binary.mjs bundles it, with the whole CLI, into
// Node's single executable application). It is node itself, so the one child mtg starts with
// `process.execPath` — the credential store's helper, `node -e HELPER ARGS...`
// (src/config/keychain.ts) — arrives here as `mtg -e HELPER ARGS...`: run it as node would (its
// argv after the code, and a require() that loads files: @napi-rs/keyring beside the binary).
// Anything else is mtg's own command line (src/cli/entry.ts).
// Built with a start-up snapshot, this script runs once, at build time: it loads what the snapshot
// keeps (sea-warm.ts) and names main() as what each run of the binary starts with.
import { createRequire } from 'node:module';
import { startupSnapshot } from 'node:v8';

function main(): void {
  const [, , flag, code] = process.argv;
  if (flag === '-e' && typeof code === 'string') {
    process.argv = [process.argv[0]!, ...process.argv.slice(4)];
    new Function('require', code)(createRequire(process.execPath));
  } else {
    require('./entry.js');
  }
}

if (startupSnapshot?.isBuildingSnapshot()) {
  void import('./sea-warm.js').then((m) => m.loadForSnapshot());
  startupSnapshot.setDeserializeMainFunction(main);
} else {
  main();
}
