// mtg export markdown: the mirror's meetings as a folder of Markdown files that stays in step
// (src/export/: naming.ts, render.ts, write.ts; reads in src/mirror/export-queries.ts).

import { readFileSync } from 'node:fs';
import { ExitCode, UsageError } from '../api/errors.js';
import type { Context } from '../cli/context.js';
import type { CommandSpec, GroupSpec } from '../cli/spec.js';
import { dataDir } from '../config/data-dir.js';
import { profileName } from '../config/settings.js';

const markdown: CommandSpec = {
  name: 'markdown',
  aliases: ['md'],
  summary: 'Write the mirror\u2019s meetings as Markdown files (one per meeting) that stay in step',
  description:
    'One Markdown file per meeting of the local mirror, as YYYY/YYYY-MM-DD <name> (<short id>).md, with YAML ' +
    'front matter (id, name, date, duration, url, tags, attendees, companies, link), the notes, action items as ' +
    'task lines, insights, and with --transcripts the transcript. Run it again: only changed meetings are ' +
    'rewritten, renamed meetings move their file, and text below the line ' +
    '"<!-- mtg: notes below this line are kept -->" is kept. Deleted meetings are reported; --prune removes ' +
    'their files. --template FILE uses your Mustache template (start from --print-template).',
  args: [{ name: 'dir', description: 'the folder to write (created when missing)' }],
  options: [
    { flags: '--transcripts', description: 'include each meeting\u2019s transcript' },
    { flags: '--private-notes', description: 'include your private notes' },
    { flags: '--since <time>', description: 'only meetings created at or after TIME (2026-01-05, 7d, ...)' },
    { flags: '--until <time>', description: 'only meetings created before TIME' },
    { flags: '--prune', description: 'remove the files of meetings deleted on the server' },
    { flags: '--template <file>', description: 'a Mustache template for the file body' },
    { flags: '--print-template', description: 'print the built-in template (to copy and edit) and exit' },
    { flags: '--sync', description: 'run `mtg sync` first' },
  ],
  examples: [
    'mtg export markdown ~/Vault/Meetings --transcripts',
    'mtg export markdown notes/ --sync --since 30d --prune --json',
    'mtg export markdown --print-template > meeting.mustache',
  ],
  async run(ctx, args, opts) {
    if (opts.printTemplate === true) {
      ctx.io.out.write((await import('../export/render.js')).defaultTemplate);
      return 0;
    }
    const dirArg = typeof args.dir === 'string' ? args.dir : undefined;
    if (!dirArg) throw new UsageError('mtg export markdown needs a folder: mtg export markdown DIR');
    const format = ctx.globals.format;
    if (format !== undefined && format !== 'json') {
      throw new UsageError(
        `mtg export markdown prints its summary as json only (--json), not --format ${format}`,
      );
    }
    const { parseTimeWindow, inWindow } = await import('../cli/dates.js');
    const window = parseTimeWindow(
      opts.since === undefined ? undefined : String(opts.since),
      opts.until === undefined ? undefined : String(opts.until),
    );
    let template: string | undefined;
    if (typeof opts.template === 'string') {
      try {
        template = readFileSync(opts.template, 'utf8');
      } catch (err) {
        throw new UsageError(
          `--template ${opts.template}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        );
      }
    }
    const [render, write, queries, naming] = await Promise.all([
      import('../export/render.js'),
      import('../export/write.js'),
      import('../mirror/export-queries.js'),
      import('../export/naming.js'),
    ]);
    await render.loadTemplateEngine();
    if (template !== undefined) {
      try {
        // Parse once up front: a broken template is exit 2 before any file is touched.
        (await import('mustache')).default.parse(template);
      } catch (err) {
        throw new UsageError(`--template ${String(opts.template)}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    const profile = profileName({ flags: { profile: ctx.globals.profile }, env: ctx.env });
    if (opts.sync === true) await syncFirst(ctx);
    const appUrl = (await ctx.settings()).appUrl?.replace(/\/+$/, '') || undefined;
    const mirror = queries.openExportMirror(profile, dataDir(ctx.env));
    let summary: import('../export/write.js').ExportSummary;
    let root: string;
    try {
      root = write.resolveExportDir(dirArg);
      const { fromJsonText } = await import('../mirror/json.js');
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
      const { humanCount } = await import('../output/text.js');
      const { sanitizeOneLine } = await import('../output/sanitize.js');
      let lastShown = 0;
      summary = write.exportMarkdown(
        { paths, meetings: meetings(), total, deleted: queries.deletedMeetingIds(mirror.db) },
        {
          dir: root,
          prune: opts.prune === true,
          transcripts: opts.transcripts === true,
          privateNotes: opts.privateNotes === true,
          ...(appUrl ? { appUrl } : {}),
          ...(template !== undefined ? { template } : {}),
          onProgress: (done, n) => {
            const now = Date.now();
            if (now - lastShown < 100 && done !== n) return;
            lastShown = now;
            ctx.progress.update(`Exporting: ${humanCount(done)} of ${humanCount(n)} meetings`);
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
    } finally {
      mirror.close();
    }
    ctx.progress.stop();
    const s = summary;
    const parts = [`${s.written} written`, `${s.unchanged} unchanged`];
    if (s.moved) parts.push(`${s.moved} moved`);
    if (s.deleted)
      parts.push(
        `${s.deleted} deleted on the server${s.pruned ? ` (${s.pruned} pruned)` : ' (kept; --prune removes them)'}`,
      );
    if (s.failed) parts.push(`${s.failed} failed`);
    ctx.progress.note(`Exported to ${root}: ${parts.join(', ')}`);
    if (format === 'json') {
      const { writeDocument } = await import('../output/document.js');
      await writeDocument(ctx.io.out, ctx.globals.output, `${JSON.stringify(s, null, 2)}\n`);
    }
    return s.failed > 0 ? ExitCode.partial : 0;
  },
};

async function syncFirst(ctx: Context): Promise<void> {
  const settings = await ctx.settings(false);
  const baseUrl = ctx.baseUrl(settings);
  const [{ openMirror }, { runSync }] = await Promise.all([
    import('../mirror/open.js'),
    import('../mirror/sync.js'),
  ]);
  const mirror = openMirror({ profile: settings.profile, dataDir: dataDir(ctx.env), baseUrl: baseUrl.href });
  try {
    const client = await ctx.client();
    const s = await runSync(client, mirror, { only: [], full: false, transcripts: true }, (e) => {
      if (!e.done) ctx.progress.update(`Syncing ${e.phase}: ${e.items}`);
    });
    ctx.progress.stop();
    ctx.progress.note(
      `Synced: ${s.meetings.total} meetings (+${s.meetings.created} ~${s.meetings.updated} -${s.meetings.deleted})`,
    );
  } catch (err) {
    throw (await import('../mirror/errors.js')).mirrorWriteError(mirror.path, err);
  } finally {
    mirror.close();
  }
}

export const exportGroup: GroupSpec = {
  name: 'export',
  summary: 'Export the local mirror (Markdown files)',
  commands: [markdown],
};
