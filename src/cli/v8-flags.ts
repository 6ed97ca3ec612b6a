// V8 flags for the whole process, set here and nowhere else (figures in bench/README.md, c and g).
// The build sets them when undici has loaded (leanUndici in scripts/build-plugins.mjs), before its
// first connection compiles llhttp, not at start: a flag given at run time changes the hash V8
// checks every code cache against, so node's own modules loaded after it (their code cache is built
// into node) were compiled from source — 30-40 M instructions of every command when the entry set
// them (bench/README.md, issue 33's fourth round) — and the binary's code cache of the CLI
// (src/cli/sea-cli.ts) is made and read under V8's defaults.
export function setV8Flags(): void {
  try {
    const v8 = process.getBuiltinModule?.('node:v8');
    // undici's HTTP parser (WebAssembly) on Liftoff: TurboFan optimizing it cost a one-page command
    // ~100 ms. (Node 20 and 22 honour it at run time; node 24 and 26 tier llhttp up after a few
    // pages all the same.)
    v8?.setFlagsFromString('--liftoff-only');
    // A long paged read grew the young generation to 2 x 8-16 MB for no speed; node's command line cannot set this.
    v8?.setFlagsFromString('--semi-space-growth-factor=1');
  } catch {
    // A node without these flags: V8's defaults.
  }
}

/**
 * `mtg mcp`'s, a server that runs for hours, set when it starts serving: V8's old generation grown
 * to at most twice what survived its last full GC. V8's own factor goes up to 4x, higher the slower
 * its GCs run (a loaded machine): what calls promote out of the young generation (kept small,
 * above) then filled it with 35-70 MB of garbage before each full GC, and Node 26 keeps the freed
 * pages a while (its memory pool), so RSS peaked at 156-192 MB over 1,000 calls (bench/README.md,
 * MCP memory; no more CPU). Set after start-up, so a module the server loads later compiles
 * without the binary's code cache. The young generation is kept small here too: a server that
 * answers from the mirror alone never loads undici.
 */
export function setServerV8Flags(): void {
  try {
    const v8 = process.getBuiltinModule?.('node:v8');
    v8?.setFlagsFromString('--heap-growing-percent=100');
    v8?.setFlagsFromString('--semi-space-growth-factor=1');
  } catch {
    // A node without this flag: V8's default.
  }
}

/**
 * V8's defaults again for the flags above (scripts/sea-train.ts): a code cache is stamped with the
 * flags of the moment it is written, and the binary reads its cache under V8's defaults.
 */
export function resetV8Flags(): void {
  const v8 = process.getBuiltinModule('node:v8');
  for (const flag of ['--no-liftoff-only', '--semi-space-growth-factor=2', '--heap-growing-percent=0'])
    v8.setFlagsFromString(flag);
}
