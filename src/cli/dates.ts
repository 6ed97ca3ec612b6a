// --since/--until: turning a time bound on the command line into an instant, and the window both
// bounds make. Plain Date is enough here (the formats are few and fixed; a date library would add
// load time to every command that takes a bound and buy nothing we use).
//
// Accepted:
// - a bare date `2026-01-05`: a day in LOCAL time; as --since it is that day's local midnight, as
//   --until the next local midnight (the window is [since, until), so the whole day is in it);
// - a date-time `2026-01-05T14:30[:00[.000]]`, with `Z` or an offset (`+02:00`) or without one
//   (then local time, as in ECMAScript); a space may stand for the `T`;
// - a relative duration before now: `30m`, `24h`, `7d`, `2w` (minutes, hours, days of 24 hours,
//   weeks of 7 days).

import { parseDurationMs } from '../shared/durations.js';
import { flagName, UsageError, WordedError } from '../shared/errors.js';

const EXAMPLES = 'e.g. 2026-01-05, 2026-01-05T14:30, 2026-01-05T14:30:00Z or 7d (also 30m, 24h, 2w)';

/** `30s`, `5m`, `1h`, `1h30m` (mtg watch's --interval and --exec-timeout): at least one second. */
export function parseInterval(value: string, flag = '--interval'): number {
  const ms = parseDurationMs(value.trim(), ['s', 'm', 'h'], { compound: true });
  if (ms === undefined || !Number.isSafeInteger(ms) || ms < 1000) {
    throw new UsageError(`Invalid ${flag} "${value}": use a duration of 1s or more, such as 30s, 5m or 1h`);
  }
  return ms;
}
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export type BoundFlag = '--since' | '--until';

export interface TimeWindow {
  /** Inclusive lower bound. */
  since?: Date;
  /** Exclusive upper bound. */
  until?: Date;
  /** The values as typed (a checkpoint matches `--since 7d` again an hour later). */
  given?: [string | undefined, string | undefined];
}

/** A since/until value that is no date, date-time or duration (worded by each caller). */
export class TimeBoundError extends WordedError {
  constructor(
    readonly bound: 'since' | 'until',
    readonly value: string,
    readonly why?: string,
  ) {
    super(
      (name) =>
        `${name(bound)} "${value}" is not a date, date-time or duration${why ? ` (${why})` : ''}; ${EXAMPLES}`,
      flagName,
    );
  }
}

/** since not earlier than until: nothing can match. */
export class EmptyTimeWindowError extends WordedError {
  constructor(
    readonly since: Date,
    readonly until: Date,
  ) {
    super(
      (name) =>
        `${name('since')} (${since.toISOString()}) is not earlier than ${name('until')} (${until.toISOString()}); nothing can match`,
      flagName,
    );
  }
}

/**
 * One --since/--until value as an instant. `flag` decides which end of a bare date's day is meant
 * and names the option in the error; `now` anchors relative durations.
 */
export function parseTimeBound(value: string, flag: BoundFlag, now: Date = new Date()): Date {
  const text = value.trim();
  const bad = (why?: string) => new TimeBoundError(flag === '--until' ? 'until' : 'since', value, why);

  const relative = parseDurationMs(text, ['m', 'h', 'd', 'w'], { maxDigits: 6 });
  if (relative !== undefined) return new Date(now.getTime() - relative);

  const date = DATE.exec(text);
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    if (!validDay(y, m, d)) throw bad('no such day');
    // The Date constructor with parts is local time and rolls d+1 over months, years and DST.
    return flag === '--until' ? new Date(y, m - 1, d + 1) : new Date(y, m - 1, d);
  }

  const dt = DATE_TIME.exec(text);
  if (dt) {
    const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(dt[i])) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const s = dt[6] === undefined ? 0 : Number(dt[6]);
    const ms = dt[7] === undefined ? 0 : Math.floor(Number(`0.${dt[7]}`) * 1000);
    if (!validDay(y, mo, d)) throw bad('no such day');
    if (h > 23 || mi > 59 || s > 59) throw bad('no such time of day');
    const zone = dt[8];
    if (zone === undefined) return new Date(y, mo - 1, d, h, mi, s, ms);
    let offsetMin = 0;
    if (zone.toUpperCase() !== 'Z') {
      const digits = zone.replace(':', '');
      const oh = Number(digits.slice(1, 3));
      const om = Number(digits.slice(3, 5));
      if (oh > 23 || om > 59) throw bad('no such offset');
      offsetMin = (digits[0] === '-' ? -1 : 1) * (oh * 60 + om);
    }
    return new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms) - offsetMin * 60_000);
  }

  throw bad();
}

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= daysInMonth;
}

/** Both bounds of a command, checked together: --since later than --until is a usage error. */
export function parseTimeWindow(
  since: string | undefined,
  until: string | undefined,
  now: Date = new Date(),
): TimeWindow {
  const window: TimeWindow = {
    since: since === undefined ? undefined : parseTimeBound(since, '--since', now),
    until: until === undefined ? undefined : parseTimeBound(until, '--until', now),
    given: [since, until],
  };
  // An empty window ([t, t)) is as surely a mistake as a reversed one.
  if (window.since && window.until && window.since.getTime() >= window.until.getTime()) {
    throw new EmptyTimeWindowError(window.since, window.until);
  }
  return window;
}

/** Whether an ISO timestamp from the API falls in the window (an unparsable one never does). */
export function inWindow(iso: string | undefined, window: TimeWindow): boolean {
  if (!window.since && !window.until) return true;
  const t = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(t)) return false;
  if (window.since && t < window.since.getTime()) return false;
  if (window.until && t >= window.until.getTime()) return false;
  return true;
}

/** Whether an ISO timestamp is older than --since (the early stop of a newest-first list). */
export function beforeSince(iso: string | undefined, window: TimeWindow): boolean {
  if (!window.since) return false;
  const t = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  return !Number.isNaN(t) && t < window.since.getTime();
}

export function hasWindow(window: TimeWindow): boolean {
  return window.since !== undefined || window.until !== undefined;
}

/** The two options, for every command that takes a window (meetings list/search, find). */
export const TIME_WINDOW_OPTIONS = [
  {
    flags: '--since <time>',
    description: 'only meetings created at or after TIME: 2026-01-05 (local day), 2026-01-05T14:30Z, 7d, 24h',
  },
  {
    flags: '--until <time>',
    description: 'only meetings created before TIME (a bare date includes that whole local day)',
  },
] as const;

/** --since/--until from a command's options (undefined when neither is given). */
export function timeWindowOption(opts: Record<string, unknown>, now?: Date): TimeWindow | undefined {
  const since = typeof opts.since === 'string' ? opts.since : undefined;
  const until = typeof opts.until === 'string' ? opts.until : undefined;
  if (since === undefined && until === undefined) return undefined;
  return parseTimeWindow(since, until, now);
}
