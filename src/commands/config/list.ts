// mtg config list: list every stored profile and its settings (keys masked).

import { ExitCode } from '../../api/errors.js';
import type { ListFormat } from '../../cli/globals.js';
import { chooseFormat, writerSetup } from '../../cli/list.js';
import { defineRun } from '../../cli/spec.js';
import { maskKey } from '../../config/settings.js';
import * as spec from './spec.js';

export const run = defineRun(spec.list, async (ctx) => {
  const format = chooseFormat(ctx) as ListFormat;
  const { out, view, options } = await writerSetup(ctx, 'raw', format);
  const store = await ctx.store();
  const rows = Object.entries(await store.profiles()).flatMap(([profile, values]) =>
    Object.entries(values).map(([key, value]) => ({
      profile,
      key,
      value: key === 'api-key' ? maskKey(String(value)) : value,
    })),
  );
  const sink = await out.openOutput(ctx.globals.output);
  const writer = out.createItemWriter(
    sink.stream,
    { ...view, tableColumns: ['profile', 'key', 'value'] },
    { ...options, color: false },
  );
  try {
    await writer.writeMany(rows);
    await writer.end();
    await sink.commit();
  } catch (err) {
    await writer.abort().catch(() => undefined);
    await sink.abort().catch(() => undefined);
    throw err;
  }
  if (rows.length === 0) ctx.progress.note(`No stored settings (${store.describe()}).`);
  return ExitCode.ok;
});
