// mtg changes: the mirror's change log, oldest first, in every output format.

import { ExitCode } from '../../api/errors.js';
import { listValues, oneOf } from '../../cli/input.js';
import { chooseFormat, writerSetup } from '../../cli/list.js';
import { defineRun } from '../../cli/spec.js';
import { dataDir } from '../../config/data-dir.js';
import { profileName } from '../../config/settings.js';
import * as changes from '../../mirror/changes.js';
import { openMirror } from '../../mirror/open.js';
import * as spec from './spec.js';

export const run = defineRun(spec.changes, async (ctx, _args, opts) => {
  const resources = listValues(opts.resource).map((v) => oneOf(v, spec.RESOURCES, '--resource value'));
  const after = opts.after;
  const since = opts.since === undefined ? undefined : changes.parseSince(opts.since);
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
  return ExitCode.ok;
});
