// mtg config get: print one stored setting of the profile.

import { defineRun } from '../../cli/spec.js';
import { maskKey } from '../../config/settings.js';
import { checkConfigKey } from '../../config/store.js';
import { ExitCode } from '../../shared/errors.js';
import * as spec from './spec.js';

export const run = defineRun(spec.get, async (ctx, args) => {
  const key = checkConfigKey(args.KEY);
  const settings = await ctx.settings();
  const value = (await (await ctx.store()).profile(settings.profile))[key];
  if (value === undefined) {
    // `auth login` keeps keys in the credential store where there is one: point there.
    const where =
      key === 'api-key' ? ' in the config file; `mtg auth status` shows the key in use and where it is' : '';
    ctx.progress.note(`${key} is not set for profile "${settings.profile}"${where}.`);
    return ExitCode.api;
  }
  // The key itself is never printed back; `auth status` shows it masked.
  ctx.io.out.write(`${key === 'api-key' ? maskKey(value) : value}\n`);
  return ExitCode.ok;
});
