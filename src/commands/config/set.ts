// mtg config set: store a setting in the profile.

import { UsageError } from '../../api/errors.js';
import { checkBaseUrl } from '../../api/url.js';
import type { Context } from '../../cli/context.js';
import type { Args } from '../../cli/spec.js';
import { checkConfigKey } from '../../config/store.js';

export async function run(ctx: Context, args: Args): Promise<number> {
  const key = checkConfigKey(String(args.KEY));
  const value = String(args.VALUE).trim();
  if (!value) throw new UsageError(`${key} must not be empty`);
  if (key === 'api-key') throw new UsageError('Use `mtg auth login` to store a key: it checks the key first');
  if (key === 'base-url') checkBaseUrl(value, ctx.globals.insecure, 'store');
  if (key === 'app-url') checkBaseUrl(value, true);
  const settings = await ctx.settings();
  await (await ctx.store()).update(settings.profile, { [key]: value });
  return 0;
}
