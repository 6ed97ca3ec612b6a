// The profile whose mirror `mtg mirror` reads or deletes.

import type { Context } from '../../cli/context.js';
import { profileName } from '../../config/settings.js';

export function profileOf(ctx: Context): string {
  return profileName({ flags: { profile: ctx.globals.profile }, env: ctx.env });
}
