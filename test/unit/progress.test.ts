// The rate-limit wait as people read it: the window named from the wait (the spec's windows are
// one second and one minute; RateLimit-Reset counts down the one closest to exhaustion).
import { describe, expect, it } from 'vitest';
import { Progress, waitText, windowName } from '../../src/cli/progress.js';

describe('waitText', () => {
  it('names the per-minute window for waits longer than a second', () => {
    expect(waitText({ ms: 12_050, reason: 'window', limit: 300 })).toBe(
      'Rate limited: waiting 12 s (per-minute window)',
    );
  });

  it('names the per-second window for waits of up to a second (plus the pacing margin)', () => {
    expect(waitText({ ms: 1_050, reason: 'window', limit: 20 })).toBe(
      'Rate limited: waiting 1 s (per-second window)',
    );
    expect(waitText({ ms: 120, reason: 'window' })).toBe('Rate limited: waiting 1 s (per-second window)');
  });

  it('says when the server answered 429', () => {
    expect(waitText({ ms: 30_000, reason: 'retry-after' })).toBe(
      'Rate limited: waiting 30 s (per-minute window; the server answered 429)',
    );
  });

  it('windowName draws the line just above one second', () => {
    expect(windowName(1_200)).toBe('per-second window');
    expect(windowName(1_201)).toBe('per-minute window');
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
    expect(lines).toEqual(['Rate limited: waiting 12 s (per-minute window)\n']);
  });

  it('--quiet: nothing', () => {
    const { progress, lines } = capture(true, true);
    progress.wait({ ms: 12_050, reason: 'window' });
    progress.note('a note');
    expect(lines).toEqual([]);
  });
});
