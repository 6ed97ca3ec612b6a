// mtg config unset: remove a setting from the profile.

import type { Context } from '../../cli/context.js';
import type { Args } from '../../cli/spec.js';
import { checkConfigKey } from '../../config/store.js';

export async function run(ctx: Context, args: Args): Promise<number> {
  const key = checkConfigKey(String(args.KEY));
  const settings = await ctx.settings();
  await (await ctx.store()).update(settings.profile, { [key]: undefined });
  return 0;
}
