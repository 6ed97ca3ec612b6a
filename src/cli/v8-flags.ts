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
