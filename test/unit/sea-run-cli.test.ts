import type { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CLI_MAIN, compileCli, runCli, wrapCliBundle } from '../../src/cli/sea-cli.js';

// The standalone binary runs the CLI as the package's files (cli.cjs and its chunks), each an asset
// compiled on its first require (src/cli/sea-load.ts): these check that the files find each other
// as node's require finds them in the package's dist/, and that a command compiles only the files
// it requires.
function files(sources: Record<string, string>) {
  const compiled: string[] = [];
  const compile = (name: string): Script => {
    compiled.push(name);
    const source = sources[name];
    if (source === undefined) throw new Error(`no such asset: ${name}`);
    return compileCli(name, wrapCliBundle(source), undefined);
  };
  return { compile, compiled };
}

describe('the binary runs the CLI from its files', () => {
  it("resolves each relative require against the requiring file's folder, compiling each file once", () => {
    const out: string[] = [];
    (globalThis as { __seaTest?: string[] }).__seaTest = out;
    const { compile, compiled } = files({
      [CLI_MAIN]: `const a = require('./chunks/a.cjs'); const b = require('./chunks/b.cjs');
        globalThis.__seaTest.push(a.name + '+' + b.name + '+' + require('node:path').posix.join('x', 'y'));`,
      'chunks/a.cjs': "exports.name = 'a:' + require('./c.cjs').name;",
      'chunks/b.cjs': "exports.name = 'b:' + require('./c.cjs').name + require('../chunks/c.cjs').name;",
      'chunks/c.cjs': "module.exports = { name: 'c' };",
      'chunks/never.cjs': "throw new Error('never required');",
    });
    runCli(compile);
    delete (globalThis as { __seaTest?: string[] }).__seaTest;
    expect(out).toEqual(['a:c+b:cc+x/y']);
    expect(compiled).toEqual([CLI_MAIN, 'chunks/a.cjs', 'chunks/c.cjs', 'chunks/b.cjs']);
  });

  it('gives a file in a require cycle the exports so far, as node does', () => {
    const out: unknown[] = [];
    (globalThis as { __seaTest?: unknown[] }).__seaTest = out;
    const { compile } = files({
      [CLI_MAIN]: "globalThis.__seaTest.push(require('./chunks/a.cjs').seen);",
      'chunks/a.cjs': "exports.early = 1; exports.seen = require('./b.cjs').seen;",
      'chunks/b.cjs': "exports.seen = Object.keys(require('./a.cjs'));",
    });
    runCli(compile);
    delete (globalThis as { __seaTest?: unknown[] }).__seaTest;
    expect(out).toEqual([['early']]);
  });

  it('lets a failed file be required again, as node does', () => {
    const out: unknown[] = [];
    (globalThis as { __seaTest?: unknown[] }).__seaTest = out;
    const { compile, compiled } = files({
      [CLI_MAIN]: `try { require('./chunks/flaky.cjs'); } catch (err) { globalThis.__seaTest.push(err.message); }
        globalThis.__seaTest.push(require('./chunks/flaky.cjs').ok);`,
      'chunks/flaky.cjs':
        "globalThis.__seaFlaky = (globalThis.__seaFlaky ?? 0) + 1; if (globalThis.__seaFlaky === 1) throw new Error('first'); exports.ok = true;",
    });
    runCli(compile);
    delete (globalThis as { __seaTest?: unknown[] }).__seaTest;
    delete (globalThis as { __seaFlaky?: number }).__seaFlaky;
    expect(out).toEqual(['first', true]);
    expect(compiled).toEqual([CLI_MAIN, 'chunks/flaky.cjs', 'chunks/flaky.cjs']);
  });
});
