// The name a user is told to install is this package's own: `mtg` (and `mtg-cli`) on npm are other
// people's packages, so an install line with the command's name would install a stranger's code.
// Scans every install line of the README, docs/, the man pages and the package smoke test.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_NAME } from '../../src/shared/install-folder.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** Names on the npm registry that belong to other people (checked 2026-11-27). */
const OTHERS = new Set(['mtg', 'mtg-cli']);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

function files(folder: string, ext: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(`${folder}/${e.name}`, ext) : e.name.endsWith(ext) ? [`${folder}/${e.name}`] : [],
  );
}

/** What each line installs or runs from npm: `npm install -g X`, `npm i X`, `npx X`, `npm exec X`, and the installed folder. */
function packagesNamed(text: string): string[] {
  const out: string[] = [];
  // Man pages escape a hyphen as `\-`.
  const plain = text.replace(/\\-/g, '-');
  // Options (`--prefix DIR` takes a value), then the first word that is not one.
  const options = String.raw`((?: +(?:--prefix +\S+|-[-\w=.@/]+))*)`;
  const word = String.raw` +([^\s\`'"|;&)-][^\s\`'"|;&)]*)`;
  for (const m of plain.matchAll(
    new RegExp(String.raw`\bnpm (?:install|i|add|exec)${options}${word}`, 'g'),
  )) {
    out.push(m[2]!);
  }
  for (const m of plain.matchAll(new RegExp(String.raw`\bnpx${options}${word}`, 'g'))) out.push(m[2]!);
  for (const m of plain.matchAll(/(?:node_modules|npm root -g\))\/([^\s/`'",]+)[/,]/g)) out.push(m[1]!);
  return out;
}

describe("the package's name", () => {
  it('is meeting-notes-cli in package.json and the lock file, and still installs the command mtg', () => {
    expect(pkg.name).toBe('meeting-notes-cli');
    expect(PACKAGE_NAME).toBe(pkg.name);
    expect(Object.keys(pkg.bin)).toEqual(['mtg']);
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
    expect(lock.name).toBe(pkg.name);
    expect(lock.packages[''].name).toBe(pkg.name);
  });

  it('is the one every install line of the README, docs/, the man pages and the package smoke test names', () => {
    const deps = new Set(
      Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies }),
    );
    const sources = ['README.md', ...files('docs', '.md'), ...files('man', '.1'), '.ci/package-smoke'];
    const wrong: string[] = [];
    let ours = 0;
    for (const file of sources) {
      for (const name of packagesNamed(readFileSync(join(ROOT, file), 'utf8'))) {
        // A clone (`.`), a packed tarball of this package, or one of its own dependencies
        // (`npx vitest` in a clone) are fine; any other name is someone else's package.
        if (OTHERS.has(name)) wrong.push(`${file}: ${name}`);
        else if (name === '.' || name === pkg.name || name.startsWith(`./${pkg.name}-`)) ours++;
        else if (!deps.has(name) && !name.startsWith('"$')) wrong.push(`${file}: ${name}`);
      }
    }
    expect(wrong).toEqual([]);
    // README, docs/install.md and docs/ci.md install it: the scan finds them.
    expect(ours).toBeGreaterThanOrEqual(6);
  });

  it('the scan reads the shapes the docs use (the test can fail)', () => {
    expect(packagesNamed('npm install -g --ignore-scripts mtg   # x')).toEqual(['mtg']);
    expect(packagesNamed('npm install -g --allow-scripts=better-sqlite3 mtg-cli')).toEqual(['mtg-cli']);
    expect(packagesNamed('run `npx mtg sandbox`')).toEqual(['mtg']);
    expect(packagesNamed('npm install \\-g mtg')).toEqual(['mtg']);
    expect(packagesNamed('($(npm root \\-g)/mtg/docs/mcp.md)')).toEqual(['mtg']);
    expect(packagesNamed('in /usr/lib/node_modules/mtg, or')).toEqual(['mtg']);
  });
});
