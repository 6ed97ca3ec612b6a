// mtg config list: list every stored profile and its settings (keys masked).

import type { Context } from '../../cli/context.js';
import { chooseFormat, loadOutput } from '../../cli/list.js';
import { maskKey } from '../../config/settings.js';
import type { Format } from '../../output/index.js';

export async function run(ctx: Context): Promise<number> {
  const store = await ctx.store();
  const rows = Object.entries(await store.profiles()).flatMap(([profile, values]) =>
    Object.entries(values).map(([key, value]) => ({
      profile,
      key,
      value: key === 'api-key' ? maskKey(String(value)) : value,
    })),
  );
  const out = await loadOutput();
  const format = chooseFormat(ctx) as Format;
  const view = { ...out.viewFor('raw'), tableColumns: ['profile', 'key', 'value'] };
  const writer = out.createItemWriter(ctx.io.stdout, view, { format, color: false });
  await writer.writeMany(rows);
  await writer.end();
  if (rows.length === 0) ctx.progress.note(`No stored settings (${store.describe()}).`);
  return 0;
}
