// mtg auth login: store an API key for a profile after checking it with one request.

import { ExitCode, UsageError } from '../../api/errors.js';
import { readSecret } from '../../cli/prompt.js';
import { defineRun } from '../../cli/spec.js';
import { maskKey } from '../../config/settings.js';
import { probe } from './probe.js';
import * as spec from './spec.js';

export const run = defineRun(spec.login, async (ctx) => {
  const store = await ctx.store();
  store.checkWritable();
  const settings = await ctx.settings();
  const baseUrl = ctx.baseUrl(settings);
  const key = await readSecret(ctx.io, 'Paste your API key (input hidden): ', ctx.signal);
  if (!key) throw new UsageError('No API key given (pipe it on stdin or paste it at the prompt)');
  if (/\s/.test(key)) throw new UsageError('The API key must not contain spaces or line breaks');
  await probe(ctx, key, baseUrl);
  // Key and base URL in one locked write: a login either stores both or reports failure.
  await store.update(settings.profile, {
    'api-key': key,
    ...(settings.baseUrlSource !== 'config' && { 'base-url': baseUrl.href.replace(/\/$/, '') }),
  });
  ctx.progress.note(`Logged in to ${baseUrl.origin} as profile "${settings.profile}" (key ${maskKey(key)}).`);
  ctx.progress.note(`Stored in ${store.path}`);
  return ExitCode.ok;
});
