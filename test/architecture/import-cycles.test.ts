// src/ has no import cycle, type-only imports included: each layer can be read, tested and reused
// (the mirror library by `mtg mcp`) without dragging in the layers above it (docs/architecture.md).

import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, namedModules, SRC } from './imports.js';

/**
 * Each group of files that reach one another through imports (Tarjan's strongly connected
 * components): its files, and one ring through them spelt out.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): { files: string[]; ring: string[] }[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) groups.push(group);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups.map((group) => ({ files: group.sort(), ring: ring(graph, new Set(group)) }));
}

/** The shortest way from the group's first file (by name) back to itself, inside the group. */
function ring(graph: ReadonlyMap<string, readonly string[]>, group: ReadonlySet<string>): string[] {
  const start = [...group].sort()[0]!;
  const from = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const w of graph.get(queue[i]!) ?? []) {
      if (!group.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let v = queue[i]!; v !== start; v = from.get(v)!) path.splice(1, 0, v);
        return [...path, start];
      }
      if (!from.has(w)) {
        from.set(w, queue[i]!);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

describe('imports in src/', () => {
  it('form no cycle (type-only imports included)', () => {
    const name = (f: string) => relative(SRC, f);
    const cycles = importCycles(importGraph()).map(
      ({ files, ring }) =>
        `${ring.map(name).join(' → ')}${files.length + 1 > ring.length ? ` (the group: ${files.map(name).join(', ')})` : ''}`,
    );
    expect(cycles).toEqual([]);
  });

  it('the walker sees every kind of import, so a cycle through any of them is found', () => {
    const file = (name: string) => join(SRC, name);
    const text = [
      "import type { A } from './a.js';",
      "export { b } from './b.js';",
      "const c = await import('./c.js');",
      "type D = typeof import('./d.js');",
    ].join('\n');
    const named = namedModules(text).sort();
    expect(named).toEqual(['./a.js', './b.js', './c.js', './d.js']);
    const graph = new Map([
      [file('x.ts'), [file('y.ts')]],
      [file('y.ts'), [file('z.ts')]],
      [file('z.ts'), [file('x.ts')]],
      [file('w.ts'), [file('x.ts')]],
    ]);
    expect(importCycles(graph).map((c) => c.ring.map((f) => relative(SRC, f)))).toEqual([
      ['x.ts', 'y.ts', 'z.ts', 'x.ts'],
    ]);
  });
});
