// mtg config get|set|unset|list: the stored settings of each profile.

import { UsageError } from '../api/errors.js';
import { checkBaseUrl } from '../api/url.js';
import type { GroupSpec } from '../cli/spec.js';
import { maskKey } from '../config/settings.js';
import { CONFIG_KEYS, checkConfigKey } from '../config/store.js';

const keyArg = { name: 'KEY', description: `one of ${CONFIG_KEYS.join(', ')}`, required: true };

export const configGroup: GroupSpec = {
  name: 'config',
  summary: 'Read and change stored settings (per profile)',
  commands: [
    {
      name: 'get',
      summary: 'Print one stored setting of the profile',
      args: [keyArg],
      examples: ['mtg config get base-url', 'mtg config get base-url --profile work'],
      async run(ctx, args) {
        const key = checkConfigKey(String(args.KEY));
        const settings = await ctx.settings();
        const value = (await (await ctx.store()).profile(settings.profile))[key];
        if (value === undefined) {
          ctx.progress.note(`${key} is not set for profile "${settings.profile}".`);
          return 1;
        }
        // The key itself is never printed back; `auth status` shows it masked.
        ctx.io.out.write(`${key === 'api-key' ? maskKey(value) : value}\n`);
        return 0;
      },
    },
    {
      name: 'set',
      summary: 'Store a setting in the profile',
      args: [keyArg, { name: 'VALUE', description: 'the value', required: true }],
      examples: [
        'mtg config set base-url https://api.example.com',
        'mtg config set app-url https://app.example.com --profile work',
      ],
      async run(ctx, args) {
        const key = checkConfigKey(String(args.KEY));
        const value = String(args.VALUE).trim();
        if (!value) throw new UsageError(`${key} must not be empty`);
        if (key === 'api-key')
          throw new UsageError('Use `mtg auth login` to store a key: it checks the key first');
        if (key === 'base-url') checkBaseUrl(value, ctx.globals.insecure, 'store');
        if (key === 'app-url') checkBaseUrl(value, true);
        const settings = await ctx.settings();
        await (await ctx.store()).update(settings.profile, { [key]: value });
        return 0;
      },
    },
    {
      name: 'unset',
      summary: 'Remove a setting from the profile',
      args: [keyArg],
      examples: ['mtg config unset app-url'],
      async run(ctx, args) {
        const key = checkConfigKey(String(args.KEY));
        const settings = await ctx.settings();
        await (await ctx.store()).update(settings.profile, { [key]: undefined });
        return 0;
      },
    },
    {
      name: 'list',
      summary: 'List every stored profile and its settings (keys masked)',
      examples: ['mtg config list', 'mtg config list --json'],
      async run(ctx) {
        const store = await ctx.store();
        const rows = Object.entries(await store.profiles()).flatMap(([profile, values]) =>
          Object.entries(values).map(([key, value]) => ({
            profile,
            key,
            value: key === 'api-key' ? maskKey(String(value)) : value,
          })),
        );
        const { chooseFormat, loadOutput } = await import('../cli/list.js');
        const out = await loadOutput();
        const format = chooseFormat(ctx) as import('../output/index.js').Format;
        const view = { ...out.viewFor('raw'), tableColumns: ['profile', 'key', 'value'] };
        const writer = out.createItemWriter(ctx.io.out, view, { format, color: false });
        await writer.writeMany(rows);
        await writer.end();
        if (rows.length === 0) ctx.progress.note(`No stored settings (${store.describe()}).`);
        return 0;
      },
    },
  ],
};
