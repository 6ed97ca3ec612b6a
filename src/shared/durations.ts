// The one duration grammar of mtg (`30s`, `5m`, `1h30m`, the sandbox's `0.5s`): a pure parser that
// says what a text means in milliseconds, or that it is not a duration; each caller words its own
// refusal (the CLI's --interval, --sync-every, the sandbox's --limits).

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
export type DurationUnit = keyof typeof UNIT_MS;

export interface DurationOptions {
  /** Several number-unit pairs in a row (`1h30m`). */
  compound?: boolean;
  /** At most this many digits in a number. */
  maxDigits?: number;
  /** A decimal number (`0.5s`, `1.5m`), rounded to the nearest millisecond. */
  decimals?: boolean;
  /** Blanks allowed between the number and its unit (`1 s`). */
  spaced?: boolean;
}

/**
 * The one duration grammar of mtg: a whole number and a unit (ms, s, m, h, d, w), or with
 * `compound` several of them in a row (`1h30m`). `units` are the units the option takes; the
 * options widen the grammar for those that need it (the sandbox's `--limits 3/0.5s`). Milliseconds,
 * or undefined when `text` is not such a duration (the caller says why).
 */
export function parseDurationMs(
  text: string,
  units: readonly DurationUnit[],
  { compound = false, maxDigits, decimals = false, spaced = false }: DurationOptions = {},
): number | undefined {
  const whole = maxDigits === undefined ? '\\d+' : `\\d{1,${maxDigits}}`;
  const number = decimals ? `${whole}(?:\\.\\d+)?` : whole;
  // Longest first, so that `ms` is not read as `m` followed by junk.
  const unit = `(?:${[...units].sort((a, b) => b.length - a.length).join('|')})`;
  const pair = `${number}${spaced ? '\\s*' : ''}${unit}`;
  if (!new RegExp(compound ? `^(?:${pair})+$` : `^${pair}$`).test(text)) return undefined;
  let ms = 0;
  for (const m of text.matchAll(new RegExp(`(${number})${spaced ? '\\s*' : ''}(${unit})`, 'g'))) {
    ms += Number(m[1]) * UNIT_MS[m[2] as DurationUnit];
  }
  // Whole numbers give whole milliseconds already: the rounding is for decimals.
  return Math.round(ms);
}
