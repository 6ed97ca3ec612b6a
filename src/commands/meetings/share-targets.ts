// The targets of `mtg meetings share`: emails and team IDs from the options and from --stdin lines,
// checked before anything is sent. Pure: no IO.

import { UsageError } from '../../api/errors.js';
import { isExactInteger, parseJsonExact } from '../../api/exact.js';
import { type ExactId, email, exactId } from '../../cli/input.js';

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

/** One target per line: an email, a team ID (a bare number), or an NDJSON object with "email" or "teamId". */
export function parseShareTargetLines(text: string): Target[] {
  const targets: Target[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    // The header row of `... --fields email` (or teamId) tsv output.
    if (targets.length === 0 && /^(email|teamid)$/i.test(line)) return;
    const where = `stdin line ${i + 1}`;
    try {
      targets.push(line.startsWith('{') ? objectTarget(line, where) : wordTarget(line, where));
    } catch (err) {
      if (err instanceof UsageError && !err.message.startsWith(where))
        throw new UsageError(`${where}: ${err.message}`);
      throw err;
    }
  });
  return targets;
}

function objectTarget(line: string, where: string): Target {
  let parsed: unknown;
  try {
    parsed = parseJsonExact(line);
  } catch {
    throw new UsageError(`${where}: not valid JSON`);
  }
  const o = (parsed ?? {}) as { email?: unknown; teamId?: unknown };
  const hasEmail = typeof o.email === 'string' && o.email.trim() !== '';
  const hasTeam =
    typeof o.teamId === 'number' ||
    isExactInteger(o.teamId) ||
    (typeof o.teamId === 'string' && o.teamId.trim() !== '');
  if (hasEmail === hasTeam)
    throw new UsageError(`${where}: the object needs exactly one of "email" or "teamId"`);
  return hasEmail ? emailTarget(o.email as string) : teamTarget(String(o.teamId));
}

function wordTarget(line: string, where: string): Target {
  if (/^\d+$/.test(line)) return teamTarget(line);
  if (line.includes('@')) return emailTarget(line);
  throw new UsageError(`${where}: expected an email address or a team ID, got "${line}"`);
}
