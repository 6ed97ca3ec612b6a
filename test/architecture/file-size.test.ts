// The house keeps the mirror library in parts small enough to read at once (docs/architecture.md):
// no file under src/mirror/ over 400 lines, so a concept that outgrows that gets a file of its own.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { SRC } from './imports.js';

const MAX_LINES = 400;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

it(`no file of the mirror library is over ${MAX_LINES} lines`, () => {
  const files = tsFiles(join(SRC, 'mirror'));
  expect(files.length).toBeGreaterThan(10);
  const over = files
    .map((f) => ({ file: relative(SRC, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > MAX_LINES)
    .map((f) => `${f.file}: ${f.lines} lines`);
  expect(over).toEqual([]);
});
