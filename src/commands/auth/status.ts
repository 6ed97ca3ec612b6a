// mtg auth status: the profile, base URL, key source, masked key and rate-limit state.

import { MissingKeyError } from '../../api/errors.js';
import { planOutput } from '../../cli/output-plan.js';
import { defineRun } from '../../cli/spec.js';
import { maskKey } from '../../config/settings.js';
import { ExitCode, exitCodeOf } from '../../shared/errors.js';
import { probe } from './probe.js';
import * as spec from './spec.js';

export const run = defineRun(spec.status, async (ctx) => {
  const plan = await planOutput(ctx, 'raw');
  const settings = await ctx.settings();
  const found = await ctx.apiKey(settings);
  const status: Record<string, unknown> = {
    profile: settings.profile,
    baseUrl: settings.baseUrl ?? null,
    baseUrlSource: settings.baseUrlSource,
    // flag, env, keychain, config file or none (cli-contract.md).
    keySource: found.source,
    key: found.key ? maskKey(found.key) : null,
  };
  let code: number = ExitCode.ok;
  if (found.key && settings.baseUrl) {
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
    code = found.key ? ExitCode.usage : ExitCode.auth;
    // The exit code alone does not say why: one line that does, and how to fix it.
    ctx.progress.line(
      found.key
        ? `mtg: No base URL for profile "${settings.profile}": set MTG_BASE_URL, or run \`mtg config set base-url URL\``
        : `mtg: ${new MissingKeyError(settings.profile).message}`,
    );
  }
  await plan.one(status);
  // A key in the plain-text file while a credential store answered: say how to move it there.
  if (found.source === 'config file' && found.storeName) {
    ctx.progress.note(
      `The key is in the config file; move it to ${found.storeName} with \`mtg auth login --move-to-keychain${settings.profile === 'default' ? '' : ` --profile ${settings.profile}`}\`.`,
    );
  }
  return code;
});
