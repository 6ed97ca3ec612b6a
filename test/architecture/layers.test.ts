// Who may import whom (docs/architecture.md, "Layers"): the test reads the table from the doc and
// checks every row against every import of src/, so the doc cannot say one thing and the code do
// another. The mirror library and the API client are usable without the command line (by `mtg mcp`,
// a long-running server), and commands get the database and the client from the Context, the one
// factory, never by opening or building them themselves.

import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, reachable, SRC } from './imports.js';

const DOC = join(SRC, '../docs/architecture.md');

/** One row of the table: the folder, what it may import (folders `x/` or files), the files it never imports. */
interface LayerRule {
  layer: string;
  may: string[];
  neverFiles: string[];
}

const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The rows of the table under "## Layers" whose first cell is a folder in backticks. */
function parseLayerTable(markdown: string): LayerRule[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Layers\n'));
  if (!section) throw new Error('docs/architecture.md has no "## Layers" section');
  return section
    .split('\n')
    .filter((line) => /^\| `[a-z-]+\/` \|/.test(line))
    .map((line) => {
      const [layer, may, never] = line
        .split('|')
        .slice(1, 4)
        .map((c) => c.trim());
      return {
        layer: ticked(layer!)[0]!,
        may: ticked(may!),
        neverFiles: ticked(never!).filter((t) => !t.endsWith('/')),
      };
    });
}

const folderOf = (file: string) => `${file.split('/')[0]}/`;

/** Each import that the rules refuse: `from imports to (row of from)`. Files are relative to src/. */
function layerViolations(
  graph: ReadonlyMap<string, readonly string[]>,
  rules: readonly LayerRule[],
): string[] {
  const byLayer = new Map(rules.map((r) => [r.layer, r]));
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const rule = byLayer.get(folderOf(from));
    if (!rule) {
      out.push(`${from}: its folder ${folderOf(from)} has no row`);
      continue;
    }
    for (const to of targets) {
      const allowed = folderOf(to) === rule.layer || rule.may.includes(folderOf(to)) || rule.may.includes(to);
      if (!allowed || rule.neverFiles.includes(to)) out.push(`${from} imports ${to} (row ${rule.layer})`);
    }
  }
  return out.sort();
}

/** A cycle among the folders the rows allow (each row's `x/` entries), or undefined. */
function layerCycle(rules: readonly LayerRule[]): string[] | undefined {
  const edges = new Map(rules.map((r) => [r.layer, r.may.filter((m) => m.endsWith('/'))]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (v: string): string[] | undefined => {
    if (state.get(v) === 'done') return undefined;
    if (state.get(v) === 'open') return [...path.slice(path.indexOf(v)), v];
    state.set(v, 'open');
    path.push(v);
    for (const w of edges.get(v) ?? []) {
      const cycle = visit(w);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(v, 'done');
    return undefined;
  };
  for (const v of edges.keys()) {
    const cycle = visit(v);
    if (cycle) return cycle;
  }
  return undefined;
}

const rules = parseLayerTable(readFileSync(DOC, 'utf8'));
const absGraph = importGraph();
const name = (f: string) => relative(SRC, f);
const graph = new Map([...absGraph].map(([f, ts]) => [name(f), ts.map(name)]));
const files = [...graph.keys()].sort();

describe('layers (the table in docs/architecture.md)', () => {
  it('has a row for every folder of src/, and every row names a folder of src/ and what it may import', () => {
    const folders = [...new Set(files.map(folderOf))].sort();
    expect(rules.map((r) => r.layer).sort()).toEqual(folders);
    for (const rule of rules) {
      for (const entry of [...rule.may, ...rule.neverFiles]) {
        const known = entry.endsWith('/') ? folders.includes(entry) : graph.has(entry);
        expect(known, `row ${rule.layer} names ${entry}, which is not in src/`).toBe(true);
      }
    }
  });

  it('allows folders that form no cycle, so nothing points up', () => {
    expect(layerCycle(rules)).toBeUndefined();
  });

  it.each(rules.map((r) => [r.layer, r] as const))(
    'row %s: every import of the folder is one its row allows',
    (layer, rule) => {
      const own = new Map([...graph].filter(([f]) => folderOf(f) === layer));
      expect(own.size).toBeGreaterThan(0);
      expect(layerViolations(own, [rule])).toEqual([]);
    },
  );

  it("no file but the registry (commands/index.ts) imports a command's module", () => {
    const registry = 'commands/index.ts';
    const modules = new Set((graph.get(registry) ?? []).filter((f) => !f.endsWith('/spec.ts')));
    expect(modules.size).toBeGreaterThan(20);
    const offending = files
      .filter((f) => f !== registry)
      .flatMap((f) => (graph.get(f) ?? []).filter((g) => modules.has(g)).map((g) => `${f} imports ${g}`));
    expect(offending).toEqual([]);
  });

  it('the mirror library and the API reach nothing of cli/ or commands/, even through other modules', () => {
    const offending = files
      .filter((f) => f.startsWith('mirror/') || f.startsWith('api/'))
      .flatMap((f) =>
        [...reachable(absGraph, `${SRC}/${f}`)]
          .map(name)
          .filter((g) => g.startsWith('cli/') || g.startsWith('commands/'))
          .map((g) => `${f} reaches ${g}`),
      );
    expect(offending).toEqual([]);
  });

  it('the checks find what they are there to find', () => {
    const table = [
      '## Layers',
      '| layer | may import | never imports |',
      '|---|---|---|',
      '| `api/` | `shared/` | everything else |',
      "| `shared/` | nothing of mtg's | everything else |",
      '| `commands/` | `api/`, `cli/index.ts` (one file) | `api/client.ts` |',
      '## Next',
    ].join('\n');
    const parsed = parseLayerTable(table);
    expect(parsed).toEqual([
      { layer: 'api/', may: ['shared/'], neverFiles: [] },
      { layer: 'shared/', may: [], neverFiles: [] },
      { layer: 'commands/', may: ['api/', 'cli/index.ts'], neverFiles: ['api/client.ts'] },
    ]);
    const fake = new Map([
      ['api/a.ts', ['shared/s.ts', 'api/b.ts', 'cli/c.ts']],
      ['shared/s.ts', ['api/a.ts']],
      ['commands/x.ts', ['api/client.ts', 'cli/index.ts', 'cli/other.ts']],
      ['ops/o.ts', []],
    ]);
    expect(layerViolations(fake, parsed)).toEqual([
      'api/a.ts imports cli/c.ts (row api/)',
      'commands/x.ts imports api/client.ts (row commands/)',
      'commands/x.ts imports cli/other.ts (row commands/)',
      'ops/o.ts: its folder ops/ has no row',
      'shared/s.ts imports api/a.ts (row shared/)',
    ]);
    expect(layerCycle([...parsed, { layer: 'shared/', may: ['api/'], neverFiles: [] }])).toEqual([
      'api/',
      'shared/',
      'api/',
    ]);
  });
});
