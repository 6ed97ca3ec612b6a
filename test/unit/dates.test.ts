import { describe, expect, it } from 'vitest';
import {
  beforeSince,
  inWindow,
  parseInterval,
  parseTimeBound,
  parseTimeWindow,
} from '../../src/cli/dates.js';
import { parseDurationMs } from '../../src/shared/durations.js';
import { ExitCode, UsageError } from '../../src/shared/errors.js';

const now = new Date('2026-03-10T12:00:00Z');

describe('parseTimeBound', () => {
  it('a bare date is a local-day bound: --since its midnight, --until the next midnight', () => {
    expect(parseTimeBound('2026-01-05', '--since', now).getTime()).toBe(new Date(2026, 0, 5).getTime());
    expect(parseTimeBound('2026-01-05', '--until', now).getTime()).toBe(new Date(2026, 0, 6).getTime());
    // Month and year roll over.
    expect(parseTimeBound('2025-12-31', '--until', now).getTime()).toBe(new Date(2026, 0, 1).getTime());
  });

  it('date-times with and without an offset', () => {
    expect(parseTimeBound('2026-01-05T14:30:00Z', '--since', now).toISOString()).toBe(
      '2026-01-05T14:30:00.000Z',
    );
    expect(parseTimeBound('2026-01-05T14:30+02:00', '--since', now).toISOString()).toBe(
      '2026-01-05T12:30:00.000Z',
    );
    expect(parseTimeBound('2026-01-05T14:30:15.250-0130', '--until', now).toISOString()).toBe(
      '2026-01-05T16:00:15.250Z',
    );
    expect(parseTimeBound('2026-01-05 14:30', '--since', now).getTime()).toBe(
      new Date(2026, 0, 5, 14, 30).getTime(),
    );
  });

  it('relative durations count back from now', () => {
    expect(parseTimeBound('30m', '--since', now).toISOString()).toBe('2026-03-10T11:30:00.000Z');
    expect(parseTimeBound('24h', '--since', now).toISOString()).toBe('2026-03-09T12:00:00.000Z');
    expect(parseTimeBound('7d', '--since', now).toISOString()).toBe('2026-03-03T12:00:00.000Z');
    expect(parseTimeBound('2w', '--until', now).toISOString()).toBe('2026-02-24T12:00:00.000Z');
  });

  it.each(['yesterday', '2026-02-30', '2026-13-01', '2026-01-05T25:00', '7x', '-7d', '', '2026-1-5', '1.5d'])(
    'rejects %j with exit 2 and an example of a good value',
    (value) => {
      let error: unknown;
      try {
        parseTimeBound(value, '--since', now);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).exitCode).toBe(ExitCode.usage);
      expect((error as UsageError).message).toMatch(/--since .*e\.g\. 2026-01-05/);
    },
  );
});

describe('parseTimeWindow', () => {
  it('rejects --since later than --until', () => {
    expect(() => parseTimeWindow('2026-02-01', '2026-01-01', now)).toThrow(/not earlier than --until/);
    // The day after --until's day: since is that midnight, until the same midnight.
    expect(() => parseTimeWindow('2026-01-06', '2026-01-05', now)).toThrow(/not earlier than --until/);
    expect(() => parseTimeWindow('1d', '2d', now)).toThrow(/not earlier than --until/);
  });
  it('one bare day for both bounds is that whole local day', () => {
    const w = parseTimeWindow('2026-01-05', '2026-01-05', now);
    expect(inWindow(new Date(2026, 0, 5, 0, 0).toISOString(), w)).toBe(true);
    expect(inWindow(new Date(2026, 0, 5, 23, 59, 59).toISOString(), w)).toBe(true);
    expect(inWindow(new Date(2026, 0, 6).toISOString(), w)).toBe(false);
    expect(inWindow(new Date(2026, 0, 4, 23, 59).toISOString(), w)).toBe(false);
    expect(beforeSince(new Date(2026, 0, 4, 23, 59).toISOString(), w)).toBe(true);
  });
});

// The one duration parser behind --since durations and mtg watch's --interval/--exec-timeout: each
// option keeps its own units and its own message.
describe('parseInterval', () => {
  it('takes seconds, minutes and hours, alone or in a row, around spaces', () => {
    expect(['30s', '5m', '1h', '1h30m', ' 2m ', '90s', '1m1s'].map((v) => parseInterval(v))).toEqual([
      30_000, 300_000, 3_600_000, 5_400_000, 120_000, 90_000, 61_000,
    ]);
  });

  it.each(['5x', '0s', '', ' ', '1.5m', '1d', '30', 'm', '-1m', '99999999999999999999s', '30S'])(
    'rejects %j with exit 2, naming the option',
    (value) => {
      expect(() => parseInterval(value)).toThrow(
        new UsageError(`Invalid --interval "${value}": use a duration of 1s or more, such as 30s, 5m or 1h`),
      );
      expect(() => parseInterval(value, '--exec-timeout')).toThrow(
        `Invalid --exec-timeout "${value}": use a duration of 1s or more`,
      );
    },
  );

  it('a --since duration takes one number of up to 6 digits and m, h, d or w (not s, not a row)', () => {
    expect(parseTimeBound('999999m', '--since', now).getTime()).toBe(now.getTime() - 999_999 * 60_000);
    for (const value of ['1000000m', '30s', '1h30m']) {
      expect(() => parseTimeBound(value, '--since', now)).toThrow(
        `--since "${value}" is not a date, date-time or duration; e.g. 2026-01-05`,
      );
    }
  });
});

// The one duration parser: the sandbox's --limits/--churn widen it (ms, decimals, blanks) through
// options; without them it reads exactly what the CLI's options take.
describe('parseDurationMs', () => {
  it('reads milliseconds, decimals and blanks only when asked', () => {
    const wide = { decimals: true, spaced: true } as const;
    expect(parseDurationMs('250ms', ['ms', 's', 'm', 'h'], wide)).toBe(250);
    expect(parseDurationMs('0.5 s', ['ms', 's', 'm', 'h'], wide)).toBe(500);
    expect(parseDurationMs('1.0005s', ['ms', 's'], wide)).toBe(1001);
    expect(parseDurationMs('1.5m', ['s', 'm', 'h'], { compound: true })).toBeUndefined();
    expect(parseDurationMs('1 m', ['s', 'm', 'h'], { compound: true })).toBeUndefined();
    expect(parseDurationMs('250ms', ['s', 'm', 'h'], { compound: true })).toBeUndefined();
    expect(parseDurationMs('1h30m', ['s', 'm', 'h'], { compound: true })).toBe(5_400_000);
  });
});
