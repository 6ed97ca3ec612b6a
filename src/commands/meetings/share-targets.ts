// The targets of `mtg meetings share`: emails and team IDs from the options and from --stdin,
// checked before anything is sent. Pure: no IO.

import { type ExactId, email, jsonNumberText, parseStdinColumn, type StdinColumn } from '../../cli/input.js';
import { UsageError } from '../../shared/errors.js';
import { isExactInteger } from '../../shared/exact.js';
import { exactId } from '../../shared/ids.js';

/** A share target and how to name it in messages ("bob@example.com", "team 7"). */
export interface Target {
  label: string;
  who: { email: string } | { teamId: ExactId };
}

export const emailTarget = (value: string): Target => {
  const address = email(value);
  return { label: address, who: { email: address } };
};

export const teamTarget = (value: string | number): Target => {
  const teamId = exactId(String(value), 'Team ID');
  return { label: `team ${teamId}`, who: { teamId } };
};

/**
 * The targets of a `--stdin` text, in any format mtg prints (parseStdinColumn): an email or a team
 * ID (a bare number) per line, objects with "email" or "teamId" (`people list --json`, ndjson), or
 * csv/tsv with an "email" (or "teamId") column.
 */
export function parseShareTargets(text: string): Target[] {
  return parseStdinColumn(text, TARGET_COLUMN);
}

const TARGET_COLUMN: StdinColumn<Target> = {
  columns: ['email', 'teamId'],
  fromObject: objectTarget,
  fromText: wordTarget,
};

function objectTarget(o: Record<string, unknown>, where: string): Target {
  const hasEmail = typeof o.email === 'string' && o.email.trim() !== '';
  const hasTeam =
    typeof o.teamId === 'number' ||
    isExactInteger(o.teamId) ||
    (typeof o.teamId === 'string' && o.teamId.trim() !== '');
  if (hasEmail === hasTeam) throw new UsageError(`${where} needs exactly one of "email" or "teamId"`);
  try {
    if (hasEmail) return emailTarget(o.email as string);
    return teamTarget(typeof o.teamId === 'number' ? jsonNumberText(o.teamId, '"teamId"') : String(o.teamId));
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${where}: ${err.message}`);
    throw err;
  }
}

function wordTarget(word: string): Target {
  if (/^\d+$/.test(word)) return teamTarget(word);
  if (word.includes('@')) return emailTarget(word);
  throw new UsageError(`expected an email address or a team ID, got "${word}"`);
}
