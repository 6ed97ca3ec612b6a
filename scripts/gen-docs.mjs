// Writes the command reference (docs/commands/) and the man pages (man/) from the command tree
// (src/cli/help-docs.ts renders them), removes generated files of commands that no longer exist, and
// lists the man pages in package.json's `man` field so that `npm install -g` installs them.
// `npm run docs`; test/docs/generated.test.ts fails when the committed files fall behind.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// The renderer and the tree are TypeScript: bundle them (as scripts/build.mjs does for help.json).
const bundled = await build({
  stdin: {
    contents:
      "export { commandTree } from './src/commands/index.ts';\n" +
      "export { generateDocs, GENERATED_DIRS } from './src/cli/help-docs.ts';\n",
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  loader: { '.mustache': 'text' },
  target: 'node20.18',
  define: { __MTG_VERSION__: '"0.0.0-docs"' },
  banner: {
    js: "import { createRequire as __mtgCreateRequire } from 'node:module'; const require = __mtgCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
const dir = await mkdtemp(join(tmpdir(), 'mtg-gen-docs-'));
let files;
let generatedDirs;
try {
  const file = join(dir, 'gen-docs.mjs');
  await writeFile(file, bundled.outputFiles[0].contents);
  const { commandTree, generateDocs, GENERATED_DIRS } = await import(pathToFileURL(file).href);
  files = generateDocs(commandTree);
  generatedDirs = GENERATED_DIRS;
} finally {
  await rm(dir, { recursive: true, force: true });
}

async function walk(folder) {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const found = await Promise.all(
    entries.map((e) => (e.isDirectory() ? walk(join(folder, e.name)) : [join(folder, e.name)])),
  );
  return found.flat();
}

for (const folder of generatedDirs) {
  for (const path of await walk(join(root, folder))) {
    const name = relative(root, path).split('\\').join('/');
    if (!files.has(name)) {
      await rm(path);
      console.log(`removed ${name}`);
    }
  }
}
for (const [name, text] of files) {
  const path = join(root, name);
  await mkdir(dirname(path), { recursive: true });
  const before = await readFile(path, 'utf8').catch(() => undefined);
  if (before !== text) {
    await writeFile(path, text);
    console.log(name);
  }
}

// package.json's `man`: every page, in the order generated (npm links them into PREFIX/share/man).
const pkgPath = join(root, 'package.json');
const pkgText = await readFile(pkgPath, 'utf8');
const pkg = JSON.parse(pkgText);
const man = [...files.keys()].filter((name) => name.startsWith('man/')).map((name) => `./${name}`);
if (JSON.stringify(pkg.man) !== JSON.stringify(man)) {
  pkg.man = man;
  await writeFile(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  console.log('package.json (man)');
}
