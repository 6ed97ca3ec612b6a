// mtg config list: list every stored profile and its settings (keys masked).

import { planOutput } from '../../cli/output-plan.js';
import { defineRun } from '../../cli/spec.js';
import { maskKey } from '../../config/settings.js';
import { ExitCode } from '../../shared/errors.js';
import * as spec from './spec.js';

export const run = defineRun(spec.list, async (ctx) => {
  const plan = await planOutput(ctx, 'raw', {
    view: { tableColumns: ['profile', 'key', 'value'] },
    plain: true,
  });
  const store = await ctx.store();
  const rows = Object.entries(await store.profiles()).flatMap(([profile, values]) =>
    Object.entries(values).map(([key, value]) => ({
      profile,
      key,
      value: key === 'api-key' ? maskKey(String(value)) : value,
    })),
  );
  await plan.list(rows);
  if (rows.length === 0) ctx.progress.note(`No stored settings (${store.describe()}).`);
  return ExitCode.ok;
});
