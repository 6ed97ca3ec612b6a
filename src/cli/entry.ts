// The bundle's entry point. `mtg --version` needs none of the CLI: answer it here and load the rest
// (commander, the command tree, main) only for everything else. Measured by `npm run bench` (a).

declare const __MTG_VERSION__: string | undefined;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // Same output as commander's version option (see buildProgram): the version and a newline.
  process.stdout.write(`${typeof __MTG_VERSION__ === 'string' ? __MTG_VERSION__ : '0.0.0-dev'}\n`);
} else {
  await import('./main.js');
}
