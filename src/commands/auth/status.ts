// mtg auth status: the profile, base URL, key source, masked key and rate-limit state.

import { ExitCode, exitCodeOf, MissingKeyError } from '../../api/errors.js';
import { defineRun } from '../../cli/spec.js';
import { maskKey } from '../../config/settings.js';
import { planOutput } from '../../output/plan.js';
import { probe } from './probe.js';
import * as spec from './spec.js';

export const run = defineRun(spec.status, async (ctx) => {
  const plan = await planOutput(ctx, 'raw');
  const settings = await ctx.settings();
  const status: Record<string, unknown> = {
    profile: settings.profile,
    baseUrl: settings.baseUrl ?? null,
    baseUrlSource: settings.baseUrlSource,
    keySource: settings.apiKeySource === 'env' ? 'MTG_API_KEY' : settings.apiKeySource,
    key: settings.apiKey ? maskKey(settings.apiKey) : null,
  };
  let code: number = ExitCode.ok;
  if (settings.apiKey && settings.baseUrl) {
    try {
      const res = await probe(ctx);
      const h = (n: string) => {
        const v = res.headers[n];
        return v === undefined ? null : Number(Array.isArray(v) ? v[0] : v);
      };
      status.verified = true;
      status.rateLimit = {
        limit: h('ratelimit-limit'),
        remaining: h('ratelimit-remaining'),
        reset: h('ratelimit-reset'),
      };
    } catch (err) {
      status.verified = false;
      status.error = err instanceof Error ? err.message : String(err);
      code = exitCodeOf(err);
    }
  } else {
    code = settings.apiKey ? ExitCode.usage : ExitCode.auth;
    // The exit code alone does not say why: one line that does, and how to fix it.
    ctx.progress.line(
      settings.apiKey
        ? `mtg: No base URL for profile "${settings.profile}": set MTG_BASE_URL, or run \`mtg config set base-url URL\``
        : `mtg: ${new MissingKeyError(settings.profile).message}`,
    );
  }
  await plan.one(status);
  return code;
});
