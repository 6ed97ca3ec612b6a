// mtg auth logout: remove the stored API key of a profile.

import type { Context } from '../../cli/context.js';

export async function run(ctx: Context): Promise<number> {
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
  return 0;
}
