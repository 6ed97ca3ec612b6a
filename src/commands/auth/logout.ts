// mtg auth logout: remove the stored API key of a profile, from wherever it is (the credential
// store and the config file).

import { defineRun } from '../../cli/spec.js';
import { credentialStore } from '../../config/keychain.js';
import { ExitCode } from '../../shared/errors.js';
import * as spec from './spec.js';

export const run = defineRun(spec.logout, async (ctx) => {
  const settings = await ctx.settings();
  const file = await ctx.store();
  const profile = settings.profile;
  const removedFrom: string[] = [];
  // The file first: a store that does not answer must not keep a key in the file.
  if ((await file.profile(profile))['api-key'] !== undefined) {
    await file.update(profile, { 'api-key': undefined });
    removedFrom.push(`the config file ${file.path}`);
  }
  const store = credentialStore(ctx.env, ctx.signal);
  if (!('unavailable' in store)) {
    const answer = await store.remove(profile);
    if ('value' in answer && answer.value) removedFrom.push(store.name);
  }
  ctx.progress.note(
    removedFrom.length > 0
      ? `Removed the API key of profile "${profile}" from ${removedFrom.join(' and ')}.`
      : `Profile "${profile}" had no stored key.`,
  );
  if (settings.apiKeySource === 'env')
    ctx.progress.note('Note: MTG_API_KEY is still set in this environment.');
  return ExitCode.ok;
});
