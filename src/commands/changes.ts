// mtg changes: the mirror's change log, oldest first, in every output format.

import { UsageError } from '../api/errors.js';
import { listValues, oneOf, wholeNumber } from '../cli/input.js';
import type { CommandSpec } from '../cli/spec.js';
import { profileName } from '../config/settings.js';

const RESOURCES = ['meetings', 'action-items', 'people', 'companies', 'transcripts'] as const;

export const changesCommand: CommandSpec = {
  name: 'changes',
  summary: 'What the local mirror learned: created, updated, deleted, completed and reopened items',
  description:
    'The change log of the local mirror (written by `mtg sync`), oldest first: ' +
    '{"seq","run","at","resource","id","change","fields","item"}. By default the changes of the latest sync. ' +
    '`seq` only grows: keep the last one you handled and pass --after SEQ to see each event exactly once. ' +
    '`item` is the object as the mirror holds it now (for deleted: the last one known).',
  options: [
    {
      flags: '--since <when>',
      description: 'last (the latest sync, the default), a sync run number, an ISO date/time, or 24h, 7d…',
    },
    { flags: '--after <seq>', description: 'only events after this seq (alone: every later event)' },
    {
      flags: '--resource <names>',
      description: 'only these resources (repeatable, comma lists)',
      repeatable: true,
      choices: RESOURCES,
    },
  ],
  examples: [
    'mtg changes',
    'mtg changes --after 1200 --resource action-items --format ndjson',
    'mtg changes --since 7d --json',
  ],
  async run(ctx, _args, opts) {
    const [{ chooseFormat, writerSetup }, { dataDir }, changes] = await Promise.all([
      import('../cli/list.js'),
      import('../config/data-dir.js'),
      import('../mirror/changes.js'),
    ]);
    const resources = listValues(opts.resource).map((v) => oneOf(v, RESOURCES, '--resource value'));
    const after = opts.after === undefined ? undefined : wholeNumber(String(opts.after), '--after');
    const since = opts.since === undefined ? undefined : changes.parseSince(String(opts.since));
    if (ctx.globals.checkpoint)
      throw new UsageError('mtg changes does not take --checkpoint: use --after SEQ');
    const format = chooseFormat(ctx) as Parameters<typeof writerSetup>[2];
    const { out, view, options } = await writerSetup(ctx, 'change', format);
    const profile = profileName({ flags: { profile: ctx.globals.profile }, env: ctx.env });
    const { openMirror } = await import('../mirror/open.js');
    const mirror = openMirror({ profile, dataDir: dataDir(ctx.env), readonly: true });
    try {
      if (since?.kind === 'run') changes.checkRunExists(mirror.db, since.run);
      if (after !== undefined) changes.checkAfter(mirror.db, after);
      const sink = await out.openOutput(ctx.io.out, ctx.globals.output);
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
  },
};
