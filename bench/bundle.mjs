// What the bench scripts share: the project's own TypeScript bundled for one run with esbuild — the
// sandbox that serves the figures (run by bench/sandbox-server.mjs in a process of its own) and the
// fixture that writes a bench mirror through src/mirror's own modules.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

async function bundle(entry, outfile, external = []) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    external,
    logLevel: 'warning',
  });
}

/** src/sandbox as one ES module at `outfile`, for bench/sandbox-server.mjs. */
export function bundleSandbox(outfile) {
  return bundle(join(ROOT, 'src', 'sandbox', 'index.ts'), outfile);
}

/**
 * bench/mirror-fixture.ts's buildFixture. Bundled beside this script, so that the driver's
 * require('better-sqlite3') resolves in the project, and removed as soon as it is loaded.
 */
export async function loadMirrorFixture() {
  const module = join(ROOT, 'bench', `.mirror-fixture-${process.pid}.mjs`);
  await bundle(join(ROOT, 'bench', 'mirror-fixture.ts'), module, ['better-sqlite3']);
  try {
    return (await import(pathToFileURL(module).href)).buildFixture;
  } finally {
    rmSync(module, { force: true });
  }
}
