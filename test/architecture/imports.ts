// The import graph of src/, for the architecture tests: every relative module each file names.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

export const SRC = resolve(__dirname, '../../src');

export function sourceFiles(dir: string = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The modules a file's text names: `import`, `import type`, `export … from`, `import('…')`, `typeof import('…')`. */
export function namedModules(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** File → the files of src/ it imports (type-only imports and dynamic ones included), `.js` resolved to `.ts`. */
export function importGraph(files: readonly string[] = sourceFiles()): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const name of namedModules(readFileSync(file, 'utf8'))) {
      if (!name.startsWith('.')) continue;
      const target = resolve(dirname(file), name).replace(/\.js$/, '.ts');
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Every file `from` reaches through imports (itself excluded unless a cycle leads back). */
export function reachable(graph: ReadonlyMap<string, readonly string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [...(graph.get(from) ?? [])];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...(graph.get(f) ?? []));
  }
  return seen;
}
