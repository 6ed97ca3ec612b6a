// mtg export markdown: the mirror's meetings as a folder of Markdown files that stays in step
// (src/export/: naming.ts, render.ts, write.ts; reads in src/mirror/export-queries.ts).

import { readFileSync } from 'node:fs';
import type { Context } from '../../cli/context.js';
import { inWindow, parseTimeWindow } from '../../cli/dates.js';
import { writeDocument } from '../../cli/output-document.js';
import { defineRun } from '../../cli/spec.js';
import { appUrlOf } from '../../config/settings.js';
import * as naming from '../../export/naming.js';
import * as render from '../../export/render.js';
import * as write from '../../export/write.js';
import { mirrorWriteError } from '../../mirror/errors.js';
import * as queries from '../../mirror/export-queries.js';
import { fromJsonText } from '../../mirror/json.js';
import { runSync } from '../../mirror/sync.js';
import { humanCount } from '../../output/text.js';
import { ExitCode, UsageError } from '../../shared/errors.js';
import { stringifyExact } from '../../shared/exact.js';
import { sanitizeOneLine } from '../../shared/sanitize.js';
import * as spec from './spec.js';

export const run = defineRun(spec.markdown, async (ctx, args, opts) => {
  if (opts.printTemplate) {
    ctx.io.out.write(render.defaultTemplate);
    return ExitCode.ok;
  }
  const dirArg = args.dir;
  if (!dirArg) throw new UsageError('mtg export markdown needs a folder: mtg export markdown DIR');
  const format = ctx.globals.format;
  if (format !== undefined && format !== 'json') {
    throw new UsageError(
      `mtg export markdown prints its summary as json only (--json), not --format ${format}`,
    );
  }
  const window = parseTimeWindow(opts.since, opts.until, ctx.io.now());
  let template: string | undefined;
  if (opts.template !== undefined) {
    try {
      template = readFileSync(opts.template, 'utf8');
    } catch (err) {
      throw new UsageError(
        `--template ${opts.template}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  }
  await render.loadTemplateEngine();
  if (template !== undefined) {
    try {
      // Parse once up front: a broken template is exit 2 before any file is touched.
      // mustache stays a dynamic import (optional and heavy): loadTemplateEngine() above has it loaded.
      (await import('mustache')).default.parse(template);
    } catch (err) {
      throw new UsageError(`--template ${opts.template}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  // Checked before --sync sends anything: a bad MTG_APP_URL is exit 2 with nothing done.
  const appUrl = appUrlOf(await ctx.settings());
  if (opts.sync) await syncFirst(ctx);
  const mirror = await queries.openExportMirror(() => ctx.mirror({ readonly: true }));
  const root = write.resolveExportDir(dirArg);
  const names = queries.liveMeetingNames(mirror.db);
  const paths = naming.assignPaths(names);
  const total = names.filter((n) => inWindow(n.createdAt ?? undefined, window)).length;
  function* meetings() {
    for (const row of queries.liveMeetings(mirror.db)) {
      if (!inWindow(row.createdAt ?? undefined, window)) continue;
      yield {
        ...row,
        parse: () => ({
          id: row.id,
          meeting: fromJsonText(row.json) as Record<string, unknown>,
          ...(row.transcriptJson ? { transcript: fromJsonText(row.transcriptJson) as unknown[] } : {}),
        }),
      };
    }
  }
  let lastShown = 0;
  const summary = write.exportMarkdown(
    { paths, meetings: meetings(), total, deleted: queries.deletedMeetingIds(mirror.db) },
    {
      dir: root,
      prune: opts.prune,
      transcripts: opts.transcripts,
      privateNotes: opts.privateNotes,
      ...(appUrl ? { appUrl } : {}),
      ...(template !== undefined ? { template } : {}),
      onProgress: (done, n) => {
        const now = Date.now();
        if (now - lastShown < 100 && done !== n) return;
        lastShown = now;
        ctx.progress.update(`Exporting: ${humanCount(done)} of ${humanCount(n)} meetings`);
      },
      onWarning: (text) => {
        ctx.progress.stop();
        ctx.progress.line(`mtg: warning: ${sanitizeOneLine(text)}`);
      },
      onProblem: (p) => {
        ctx.progress.stop();
        ctx.progress.note(
          `${sanitizeOneLine(p.path)} (meeting ${sanitizeOneLine(p.id)}): ${sanitizeOneLine(p.reason)}`,
        );
      },
    },
    template ?? render.defaultTemplate,
  );
  ctx.progress.stop();
  const s = summary;
  const parts = [`${s.written} written`, `${s.unchanged} unchanged`];
  if (s.moved) parts.push(`${s.moved} moved`);
  if (s.deleted)
    parts.push(
      `${s.deleted} deleted on the server${s.pruned || s.keptWithNotes ? ` (${s.pruned} pruned${s.keptWithNotes ? `, ${s.keptWithNotes} kept: they hold your notes` : ''})` : ' (kept; --prune removes them)'}`,
    );
  if (s.notInMirror) parts.push(`${s.notInMirror} kept (not in this mirror)`);
  if (s.failed) parts.push(`${s.failed} failed`);
  ctx.progress.note(`Exported to ${root}: ${parts.join(', ')}`);
  if (format === 'json') {
    await writeDocument(ctx, `${stringifyExact(s, 2)}\n`);
  }
  return s.failed > 0 ? ExitCode.partial : ExitCode.ok;
});

async function syncFirst(ctx: Context): Promise<void> {
  // Refusals first (--offline, no key): the mirror file is created only when the sync can run.
  const client = await ctx.client();
  const mirror = await ctx.mirror({ readonly: false });
  try {
    const s = await runSync(client, mirror, { only: [], full: false, transcripts: true }, (e) => {
      if (!e.done && !e.refreshed) ctx.progress.update(`Syncing ${e.phase}: ${e.items}`);
    });
    ctx.progress.stop();
    ctx.progress.note(
      `Synced: ${s.meetings.total} meetings (+${s.meetings.created} ~${s.meetings.updated} -${s.meetings.deleted})`,
    );
  } catch (err) {
    throw mirrorWriteError(mirror.path, err);
  }
}
