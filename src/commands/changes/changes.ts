// mtg changes: the mirror's change log, oldest first, in every output format.

import { UsageError } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';
import { listValues, oneOf, wholeNumber } from '../../cli/input.js';
import { chooseFormat, writerSetup } from '../../cli/list.js';
import type { Args, Opts } from '../../cli/spec.js';
import { dataDir } from '../../config/data-dir.js';
import { profileName } from '../../config/settings.js';
import * as changes from '../../mirror/changes.js';
import { openMirror } from '../../mirror/open.js';
import { RESOURCES } from './spec.js';

export async function run(ctx: Context, _args: Args, opts: Opts): Promise<number> {
  const resources = listValues(opts.resource).map((v) => oneOf(v, RESOURCES, '--resource value'));
  const after = opts.after === undefined ? undefined : wholeNumber(String(opts.after), '--after');
  const since = opts.since === undefined ? undefined : changes.parseSince(String(opts.since));
  if (ctx.globals.checkpoint) throw new UsageError('mtg changes does not take --checkpoint: use --after SEQ');
  const format = chooseFormat(ctx) as Parameters<typeof writerSetup>[2];
  const { out, view, options } = await writerSetup(ctx, 'change', format);
  const profile = profileName({ flags: { profile: ctx.globals.profile }, env: ctx.env });
  const mirror = openMirror({ profile, dataDir: dataDir(ctx.env), readonly: true });
  try {
    if (since?.kind === 'run') changes.checkRunExists(mirror.db, since.run);
    const sink = await out.openOutput(ctx.globals.output);
    const writer = out.createItemWriter(sink.stream, view, options);
    try {
      const batch: unknown[] = [];
      for (const event of changes.readChanges(mirror.db, {
        since,
        after,
        resources,
        limit: ctx.globals.limit,
      })) {
        batch.push(event);
        if (batch.length === 500) await writer.writeMany(batch.splice(0));
      }
      await writer.writeMany(batch);
      await writer.end();
      await sink.commit();
    } catch (err) {
      await writer.abort().catch(() => undefined);
      await sink.abort().catch(() => undefined);
      throw err;
    }
    if (writer.count === 0) ctx.progress.note('No changes.');
  } finally {
    mirror.close();
  }
  return 0;
}
