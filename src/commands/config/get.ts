// mtg config get: print one stored setting of the profile.

import type { Context } from '../../cli/context.js';
import type { Args } from '../../cli/spec.js';
import { maskKey } from '../../config/settings.js';
import { checkConfigKey } from '../../config/store.js';

export async function run(ctx: Context, args: Args): Promise<number> {
  const key = checkConfigKey(String(args.KEY));
  const settings = await ctx.settings();
  const value = (await (await ctx.store()).profile(settings.profile))[key];
  if (value === undefined) {
    ctx.progress.note(`${key} is not set for profile "${settings.profile}".`);
    return 1;
  }
  // The key itself is never printed back; `auth status` shows it masked.
  ctx.io.stdout.write(`${key === 'api-key' ? maskKey(value) : value}\n`);
  return 0;
}
