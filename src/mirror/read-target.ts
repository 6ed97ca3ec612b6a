// Which mirror a read opens, and which base URL it must hold: the one place every reader of the
// mirror (offline reads, find, sql, changes, the export, and later `mtg mcp`) goes through, so a
// mirror of another server is never read as the configured one's (openMirror() refuses it).

import type { Context } from '../cli/context.js';
import { dataDir } from '../config/data-dir.js';
import { profileName } from '../config/settings.js';
import { type Mirror, openMirror } from './open.js';

/**
 * What a reader of the mirror needs from the command line: the profile, and the base URL configured
 * for it (flag, env or profile; undefined when none), which the mirror must hold (openMirror).
 */
export interface MirrorReadTarget {
  profile: string;
  dataDir: string;
  baseUrl: string | undefined;
}

export async function mirrorReadTarget(ctx: Context): Promise<MirrorReadTarget> {
  const flags = { profile: ctx.globals.profile, baseUrl: ctx.globals.baseUrl };
  const profile = profileName({ flags, env: ctx.env });
  // Flag and env need no config file; only without them is the profile's stored base URL read.
  const baseUrl = flags.baseUrl || ctx.env.MTG_BASE_URL || (await ctx.settings(false)).baseUrl || undefined;
  return { profile, dataDir: dataDir(ctx.env), baseUrl };
}

/** A profile's mirror opened read-only (queries only, never blocked by a running sync: WAL). */
export function openMirrorFor(target: MirrorReadTarget): Mirror {
  return openMirror({ ...target, readonly: true });
}

/** The command's mirror, read-only, refused when it holds another base URL than the configured one. */
export async function openMirrorForReading(ctx: Context): Promise<Mirror> {
  return openMirrorFor(await mirrorReadTarget(ctx));
}
