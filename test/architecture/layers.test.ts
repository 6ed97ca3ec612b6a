// Who may import whom (docs/architecture.md): the mirror library and the API client are usable
// without the command line (by `mtg mcp`, a long-running server), and commands get the database and
// the client from the Context, the one factory, never by opening or building them themselves.

import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, reachable, SRC } from './imports.js';

const graph = importGraph();
const name = (f: string) => relative(SRC, f);
const files = [...graph.keys()].map(name).sort();

describe('layers', () => {
  it('the mirror library and the API reach nothing of cli/ or commands/, even through other modules', () => {
    const offending = files
      .filter((f) => f.startsWith('mirror/') || f.startsWith('api/'))
      .flatMap((f) =>
        [...reachable(graph, `${SRC}/${f}`)]
          .map(name)
          .filter((g) => g.startsWith('cli/') || g.startsWith('commands/'))
          .map((g) => `${f} reaches ${g}`),
      );
    expect(offending).toEqual([]);
  });

  it('no command opens the database or builds an API client itself (the Context does)', () => {
    const openers = ['mirror/open.ts', 'mirror/driver.ts', 'api/client.ts'];
    const offending = files
      .filter((f) => f.startsWith('commands/'))
      .flatMap((f) =>
        (graph.get(`${SRC}/${f}`) ?? [])
          .map(name)
          .filter((g) => openers.includes(g))
          .map((g) => `${f} imports ${g}`),
      );
    expect(offending).toEqual([]);
  });
});
