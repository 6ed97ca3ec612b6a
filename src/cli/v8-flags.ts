// V8 flags for the whole process, set here and nowhere else (figures in bench/README.md, c and g).
// src/cli/bin.ts sets them at the start of every run; the standalone binary sets them before it
// compiles the CLI too (src/cli/sea-cli.ts): V8 accepts a code cache only under the flags it was
// made with.
export function setV8Flags(): void {
  try {
    const v8 = process.getBuiltinModule?.('node:v8');
    // undici's HTTP parser (WebAssembly) on Liftoff: TurboFan optimizing it cost a one-page command ~100 ms.
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
 * without the binary's code cache.
 */
export function setServerV8Flags(): void {
  try {
    process.getBuiltinModule?.('node:v8')?.setFlagsFromString('--heap-growing-percent=100');
  } catch {
    // A node without this flag: V8's default.
  }
}
