// mtg auth logout: remove the stored API key of a profile.

import { ExitCode } from '../../api/errors.js';
import { defineRun } from '../../cli/spec.js';
import * as spec from './spec.js';

export const run = defineRun(spec.logout, async (ctx) => {
  const settings = await ctx.settings();
  const store = await ctx.store();
  const had = (await store.profile(settings.profile))['api-key'] !== undefined;
  if (had) await store.update(settings.profile, { 'api-key': undefined });
  ctx.progress.note(
    had
      ? `Removed the API key of profile "${settings.profile}".`
      : `Profile "${settings.profile}" had no stored key.`,
  );
  if (settings.apiKeySource === 'env')
    ctx.progress.note('Note: MTG_API_KEY is still set in this environment.');
  return ExitCode.ok;
});
