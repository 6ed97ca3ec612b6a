// The rate-limit wait as people read it: the window named from what the server reported (its
// limit), not from the spec's plans (a server of 5/1s and 40/10s has no per-minute window).
import { describe, expect, it } from 'vitest';
import { Progress, waitText } from '../../src/cli/progress.js';

describe('waitText', () => {
  it('names the window by what the server reported (its limit), never "per-minute"', () => {
    expect(waitText({ ms: 12_050, reason: 'window', limit: 40 })).toBe(
      'Rate limited: waiting 12 s (the window of 40 requests)',
    );
    expect(waitText({ ms: 1_050, reason: 'window', limit: 5 })).toBe(
      'Rate limited: waiting 1 s (the window of 5 requests)',
    );
    expect(waitText({ ms: 120, reason: 'window' })).toBe('Rate limited: waiting 1 s (the rate-limit window)');
  });

  it('says when the server answered 429', () => {
    expect(waitText({ ms: 30_000, reason: 'retry-after' })).toBe(
      'Rate limited: waiting 30 s (the rate-limit window; the server answered 429)',
    );
  });
});

describe('Progress outside a terminal', () => {
  function capture(quiet: boolean, verbose = false) {
    const lines: string[] = [];
    const stream = { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WritableStream;
    return { progress: new Progress({ stream, tty: false, color: false, quiet, verbose }), lines };
  }

  it('logs long waits as a line, not short ones', () => {
    const { progress, lines } = capture(false);
    progress.update('Fetched 5 action items, page 1');
    progress.wait({ ms: 900, reason: 'window' });
    progress.wait({ ms: 12_050, reason: 'window' });
    expect(lines).toEqual(['Rate limited: waiting 12 s (the rate-limit window)\n']);
  });

  it('--quiet: nothing', () => {
    const { progress, lines } = capture(true, true);
    progress.wait({ ms: 12_050, reason: 'window' });
    progress.note('a note');
    expect(lines).toEqual([]);
  });
});
