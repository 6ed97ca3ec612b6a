// mtg auth login|logout|status: store a verified key per profile, remove it, show where it comes from.

import { UsageError } from '../api/errors.js';
import type { Context } from '../cli/context.js';
import type { GroupSpec } from '../cli/spec.js';
import { maskKey } from '../config/settings.js';

/** The cheapest request there is: one person. Used to verify a key and to read the rate-limit state. */
async function probe(ctx: Context, apiKey?: string, baseUrl?: URL) {
  const client = await ctx.client(apiKey || baseUrl ? { apiKey, baseUrl } : undefined);
  const { Person } = await import('../api/schemas.js');
  const { z } = await import('zod');
  try {
    return await client.request({
      method: 'GET',
      path: '/people',
      query: { limit: 1 },
      schema: z.array(Person),
    });
  } finally {
    if (apiKey || baseUrl) await client.close();
  }
}

export const authGroup: GroupSpec = {
  name: 'auth',
  summary: 'Log in, log out and show which key is used',
  commands: [
    {
      name: 'login',
      summary: 'Store an API key for a profile after checking it with one request',
      description:
        'Store an API key for a profile. The key is read from stdin when it is not a terminal, else from a hidden prompt, ' +
        'checked with one cheap request, and stored in the config file (mode 0600).',
      examples: [
        'mtg auth login --base-url https://api.example.com',
        'echo "$KEY" | mtg auth login --profile work',
      ],
      async run(ctx) {
        const store = await ctx.store();
        store.checkWritable();
        const settings = await ctx.settings();
        const baseUrl = ctx.baseUrl(settings);
        const key = await (await import('../cli/prompt.js')).readSecret(
          ctx.io,
          'Paste your API key (input hidden): ',
        );
        if (!key) throw new UsageError('No API key given (pipe it on stdin or paste it at the prompt)');
        if (/\s/.test(key)) throw new UsageError('The API key must not contain spaces or line breaks');
        await probe(ctx, key, baseUrl);
        // Key and base URL in one locked write: a login either stores both or reports failure.
        await store.update(settings.profile, {
          'api-key': key,
          ...(settings.baseUrlSource !== 'config' && { 'base-url': baseUrl.href.replace(/\/$/, '') }),
        });
        ctx.progress.note(
          `Logged in to ${baseUrl.origin} as profile "${settings.profile}" (key ${maskKey(key)}).`,
        );
        ctx.progress.note(`Stored in ${store.path}`);
        return 0;
      },
    },
    {
      name: 'logout',
      summary: 'Remove the stored API key of a profile',
      examples: ['mtg auth logout', 'mtg auth logout --profile work'],
      async run(ctx) {
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
      },
    },
    {
      name: 'status',
      summary: 'Show the profile, base URL, key source, masked key and rate-limit state',
      examples: ['mtg auth status', 'mtg auth status --json'],
      async run(ctx) {
        const settings = await ctx.settings();
        const status: Record<string, unknown> = {
          profile: settings.profile,
          baseUrl: settings.baseUrl ?? null,
          baseUrlSource: settings.baseUrlSource,
          keySource: settings.apiKeySource === 'env' ? 'MTG_API_KEY' : settings.apiKeySource,
          key: settings.apiKey ? maskKey(settings.apiKey) : null,
        };
        let code = 0;
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
            code = (err as { exitCode?: number }).exitCode ?? 1;
          }
        } else {
          code = settings.apiKey ? 2 : 3;
        }
        const { writeResult } = await import('../cli/list.js');
        await writeResult(ctx, 'raw', status);
        return code;
      },
    },
  ],
};
