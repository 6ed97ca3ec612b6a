import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type InStream, type OutStream, systemIO } from '../../src/cli/io.js';

// node builds process.stdin when it is first read, and for a file or /dev/null that loads ~25 of
// node's modules (fs/promises, readline, the REPL's history): the IO seam reads it only for a
// command that uses stdin.
describe("the IO seam's stdin", () => {
  const proc = () => {
    let reads = 0;
    const stdin = Object.assign(new PassThrough(), { isTTY: true }) as InStream;
    const out = new PassThrough() as unknown as OutStream;
    return {
      reads: () => reads,
      stdin,
      proc: {
        stdout: out,
        stderr: out,
        get stdin() {
          reads++;
          return stdin;
        },
      },
    };
  };

  it('is not read until a command uses it', () => {
    const p = proc();
    const io = systemIO(p.proc);
    expect(io.outIsTTY).toBe(false);
    expect(p.reads()).toBe(0);
  });

  it('is read once, for whether it is a terminal and for reading', () => {
    const p = proc();
    const io = systemIO(p.proc);
    expect(io.inIsTTY).toBe(true);
    expect(io.in).toBe(p.stdin);
    expect(io.in).toBe(p.stdin);
    expect(p.reads()).toBe(1);
  });
});
