// No function in src/ over 120 lines (issue #31): a function that long does several things, and
// each of them deserves a name. Every function-like node is measured (declarations, methods,
// accessors, constructors, arrow functions and function expressions), from its first line to its
// last, nested functions counted in their parent too, since the parent's reader reads them.

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './imports.js';

const MAX_LINES = 120;

interface Measured {
  where: string;
  name: string;
  lines: number;
}

/** Every function-like node of a file's text with its length in lines. */
function functionSizes(file: string, text: string): Measured[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Measured[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ where: `${file}:${first + 1}`, name: nameOf(node), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

describe(`functions in src/`, () => {
  it(`are at most ${MAX_LINES} lines each`, () => {
    const over = sourceFiles()
      .flatMap((f) => functionSizes(relative(SRC, f), readFileSync(f, 'utf8')))
      .filter((m) => m.lines > MAX_LINES);
    expect(over.map((m) => `${m.where} ${m.name}: ${m.lines} lines`)).toEqual([]);
  });

  it('the measure sees every kind of function, nested ones included', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = [
      `function outer() {\n${body(3)}\n  const inner = () => {\n${body(2)}\n  };\n}`,
      `class C {\n  method() {\n${body(1)}\n  }\n  constructor() {}\n}`,
      `const handlers = { onGet: function () {\n${body(1)}\n} };`,
      'declare function bodiless(): void;',
    ].join('\n');
    expect(functionSizes('x.ts', text).map((m) => [m.name, m.lines])).toEqual([
      ['outer', 9],
      ['inner', 4],
      ['method', 3],
      ['constructor', 1],
      ['onGet', 3],
    ]);
  });
});
