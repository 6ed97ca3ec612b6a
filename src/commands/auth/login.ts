// mtg auth login: store an API key for a profile after checking it with one request, in the OS
// credential store where there is one, else (or with --insecure-storage) in the config file.

import type { Context } from '../../cli/context.js';
import { readSecret } from '../../cli/prompt.js';
import { defineRun } from '../../cli/spec.js';
import { credentialStore } from '../../config/keychain.js';
import { maskKey } from '../../config/settings.js';
import type { ConfigStore } from '../../config/store.js';
import { ExitCode, InterruptedError, MtgError, UsageError } from '../../shared/errors.js';
import { probe } from './probe.js';
import * as spec from './spec.js';

export const run = defineRun(spec.login, async (ctx, _args, opts) => {
  if (opts.insecureStorage && opts.moveToKeychain) {
    throw new UsageError('--insecure-storage and --move-to-keychain ask for opposite places: choose one');
  }
  if (opts.moveToKeychain && ctx.globals.apiKey !== undefined) {
    throw new UsageError(
      '--api-key gives a new key and --move-to-keychain moves the one already in the config file: choose one',
    );
  }
  const file = await ctx.store();
  file.checkWritable();
  const settings = await ctx.settings();
  if (opts.moveToKeychain) return moveToKeychain(ctx, file, settings.profile);
  const baseUrl = ctx.baseUrl(settings);
  // A key given with --api-key is the key to log in with (checked and stored like a pasted one),
  // as it is the key to use everywhere else; without it, stdin or the hidden prompt.
  const key =
    ctx.globals.apiKey ?? (await readSecret(ctx.io, 'Paste your API key (input hidden): ', ctx.signal));
  if (!key)
    throw new UsageError('No API key given (pipe it on stdin, paste it at the prompt or give --api-key)');
  if (/\s/.test(key)) throw new UsageError('The API key must not contain spaces or line breaks');
  await probe(ctx, key, baseUrl);
  const profile = settings.profile;
  const baseUrlChange =
    settings.baseUrlSource !== 'config' ? { 'base-url': baseUrl.href.replace(/\/$/, '') } : {};
  const loggedIn = `Logged in to ${baseUrl.origin} as profile "${profile}" (key ${maskKey(key)}).`;
  const store = credentialStore(ctx.env, ctx.signal);

  let noStore = 'unavailable' in store ? store.unavailable : undefined;
  if (!opts.insecureStorage && !('unavailable' in store)) {
    const answer = await store.set(profile, key);
    if ('value' in answer) {
      // The file keeps the base URL and no key (an older key there would only confuse).
      await file.update(profile, { 'api-key': undefined, ...baseUrlChange });
      ctx.progress.note(loggedIn);
      ctx.progress.note(`Stored in ${store.name} (service "mtg", account "${profile}").`);
      return ExitCode.ok;
    }
    noStore = answer.unavailable;
  }
  // Key and base URL in one locked write: a login either stores both or reports failure.
  await file.update(profile, { 'api-key': key, ...baseUrlChange });
  if (opts.insecureStorage && !('unavailable' in store)) {
    // The store comes first when keys are looked up: an older key there would hide this one. Only
    // now that the file holds the new key: removing it first lost the key when the write failed.
    try {
      await store.remove(profile);
    } catch (err) {
      if (err instanceof InterruptedError || !(err instanceof MtgError)) throw err;
      throw new MtgError(
        `The key is stored in ${file.path}, but an older key in ${store.name} could not be removed and still comes first: ${err.message}`,
        ExitCode.api,
      );
    }
  }
  if (!opts.insecureStorage) {
    ctx.progress.line(
      `mtg: No credential store here (${noStore}): the key is stored in the config file ${file.path} (mode 0600)`,
    );
  }
  ctx.progress.note(loggedIn);
  ctx.progress.note(`Stored in ${file.path}`);
  return ExitCode.ok;
});

/** The key already in the config file goes to the credential store; the file keeps the rest. */
async function moveToKeychain(ctx: Context, file: ConfigStore, profile: string): Promise<number> {
  const key = (await file.profile(profile))['api-key'];
  if (!key) {
    throw new UsageError(`Profile "${profile}" has no key in the config file ${file.path}: nothing to move`);
  }
  const store = credentialStore(ctx.env, ctx.signal);
  const answer = 'unavailable' in store ? store : await store.set(profile, key);
  if ('unavailable' in answer || 'unavailable' in store) {
    const why = 'unavailable' in answer ? answer.unavailable : '';
    throw new UsageError(`No credential store here (${why}): the key stays in the config file ${file.path}`);
  }
  await file.update(profile, { 'api-key': undefined });
  ctx.progress.note(
    `Moved the key of profile "${profile}" from ${file.path} to ${store.name} (service "mtg", account "${profile}").`,
  );
  return ExitCode.ok;
}
