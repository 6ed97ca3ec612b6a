// mtg config unset: remove a setting from the profile.

import { defineRun } from '../../cli/spec.js';
import { checkConfigKey } from '../../config/store.js';
import { ExitCode } from '../../shared/errors.js';
import * as spec from './spec.js';

export const run = defineRun(spec.unset, async (ctx, args) => {
  const key = checkConfigKey(args.KEY);
  const settings = await ctx.settings();
  await (await ctx.store()).update(settings.profile, { [key]: undefined });
  return ExitCode.ok;
});
