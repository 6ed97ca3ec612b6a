// mtg config set: store a setting in the profile.

import { checkBaseUrl } from '../../api/url.js';
import { defineRun } from '../../cli/spec.js';
import { checkAppUrl } from '../../config/settings.js';
import { checkConfigKey } from '../../config/store.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import * as spec from './spec.js';

export const run = defineRun(spec.set, async (ctx, args) => {
  const key = checkConfigKey(args.KEY);
  const value = args.VALUE.trim();
  if (!value) throw new UsageError(`${key} must not be empty`);
  if (key === 'api-key') throw new UsageError('Use `mtg auth login` to store a key: it checks the key first');
  if (key === 'base-url') checkBaseUrl(value, ctx.globals.insecure, 'store');
  if (key === 'app-url') checkAppUrl(value, 'app-url');
  const settings = await ctx.settings();
  await (await ctx.store()).update(settings.profile, { [key]: value });
  return ExitCode.ok;
});
