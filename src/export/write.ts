// Planning and writing the export folder. Safety rules, all checked here:
// - Nothing is written outside DIR: DIR is resolved to its real path once; a year folder that is
//   a symbolic link is followed only when it resolves inside DIR; a file that is a symbolic link is
//   never read nor written through (reported instead). Paths read back from the manifest are
//   accepted only in the shape this module writes (`YYYY/<one name>.md`).
// - Every file is whole at every moment: written to a temp file in its own folder, then renamed
//   (shared/atomic-file.ts).
// - Incremental: the manifest (`.mtg-export.json`) maps each meeting ID to its file and a hash of
//   what the file was made from; journal lines follow the files (in small batches), so a run
//   killed midway loses nothing, and a file renamed into place but not yet journaled is
//   recognised by its kept-region marker and compared, not rewritten.

import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { writeFileAtomicSync } from '../shared/atomic-file.js';
import { UsageError } from '../shared/errors.js';
import { type ExportMeeting, KEPT_MARKER, type RenderOptions, renderMeeting, splitKept } from './render.js';

export const MANIFEST = '.mtg-export.json';
const JOURNAL = '.mtg-export.journal';
const TEMP_PREFIX = '.mtg-tmp-';
/** Bumped when the built-in rendering changes, so every file is made again once. */
const RENDER_VERSION = '1';
const MANIFEST_PATH = /^\d{4}\/[^/\\\u0000]+\.md$/;

export interface ManifestEntry {
  path: string;
  /** Hash of what the file was made from (meeting, transcript, options, template). */
  source: string;
}

export interface SourceMeeting {
  id: string;
  createdAt: string | null;
  /** The meeting's json column and its transcript's, as stored. */
  json: string;
  transcriptJson: string | null;
  parse(): ExportMeeting;
}

export interface ExportInput {
  /** Relative path of every live meeting's file (assignPaths over all live meetings). */
  paths: Map<string, string>;
  /** The live meetings to export (already restricted to the window). */
  meetings: Iterable<SourceMeeting>;
  /** How many of them (for progress). */
  total: number;
  /**
   * What the mirror knows of deleted meetings: only a tombstoned meeting's file is "deleted on the
   * server"; a file whose meeting the mirror does not have at all is kept and reported apart.
   * `listComplete` false (the meetings list was never walked to its end): nothing is pruned.
   */
  deleted: { ids: ReadonlySet<string>; listComplete: boolean };
}

export interface ExportOptions extends RenderOptions {
  dir: string;
  prune: boolean;
  template?: string;
  onProgress?: (done: number, total: number) => void;
  onProblem?: (p: Problem) => void;
  /** A warning for people (the command prints it on stderr). */
  onWarning: (text: string) => void;
}

export interface Problem {
  id: string;
  path: string;
  reason: string;
}

export interface ExportSummary {
  dir: string;
  written: number;
  unchanged: number;
  moved: number;
  deleted: number;
  pruned: number;
  /** Files of deleted meetings that --prune left because they hold the user's text below the kept line. */
  keptWithNotes: number;
  /** Files of meetings this mirror does not have (neither live nor tombstoned): kept. */
  notInMirror: number;
  /** Whether the mirror's meetings list was ever walked to its end (false: --prune removes nothing). */
  mirrorComplete: boolean;
  failed: number;
  paths: {
    written: string[];
    moved: { from: string; to: string }[];
    deleted: string[];
    pruned: string[];
    keptWithNotes: string[];
    notInMirror: string[];
  };
  problems: Problem[];
}

// The files hold notes and transcripts (the mirror with the same data is 0600 in 0700): a folder
// mtg creates is 0700 and a file it writes 0600, whatever the umask; an existing folder keeps its mode.
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;
// Never through a link (ELOOP), never blocked on a FIFO (O_NONBLOCK: ENXIO without a reader).
const NOFOLLOW = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** DIR as a real path, created when missing (0700, and so are the missing folders above it); not a folder is a usage error. */
export function resolveExportDir(dir: string): string {
  try {
    const first = mkdirSync(dir, { recursive: true, mode: FOLDER_MODE });
    // mkdir's mode goes through the umask: set it exactly on each folder this call made.
    if (first !== undefined) {
      for (let d = resolve(dir); ; d = dirname(d)) {
        chmodSync(d, FOLDER_MODE);
        if (d === resolve(first) || dirname(d) === d) break;
      }
    }
  } catch (err) {
    throw new UsageError(`Cannot create the export folder ${dir}: ${(err as Error).message}`);
  }
  const real = realpathSync(dir);
  if (!statSync(real).isDirectory()) throw new UsageError(`${dir} is not a folder`);
  return real;
}

/**
 * The export's own files in DIR (the index and the journal) are never opened through a link: one
 * planted there (`ln -s ~/.bashrc DIR/.mtg-export.journal`) would have mtg append to its target.
 * Refused before anything is written, in one line.
 */
function checkOwnFiles(root: string): void {
  for (const name of [MANIFEST, JOURNAL]) {
    const st = lstatOrUndefined(join(root, name));
    if (st && !st.isFile()) {
      throw new UsageError(
        `${join(root, name)} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}: mtg does not write through it; remove it and run again`,
      );
    }
  }
}

/** Opens `path` without following a link, and only when it is a regular file (else closed, EFTYPE-like error). */
function openRegular(path: string, flags: number, mode?: number): number {
  const fd = openSync(path, flags | NOFOLLOW, mode);
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREGULAR' });
  }
  return fd;
}

/** A regular file's text, never through a link; undefined when there is none (or a link, a FIFO...). */
function readRegularText(path: string): string | undefined {
  let fd: number;
  try {
    fd = openRegular(path, constants.O_RDONLY);
  } catch {
    return undefined;
  }
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function isInside(root: string, path: string): boolean {
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export function readManifest(root: string): Map<string, ManifestEntry> {
  const files = new Map<string, ManifestEntry>();
  const accept = (id: unknown, e: unknown) => {
    if (typeof id !== 'string' || typeof e !== 'object' || e === null) return;
    const { path, source } = e as Record<string, unknown>;
    if (
      typeof path === 'string' &&
      MANIFEST_PATH.test(path) &&
      !path.includes('..') &&
      typeof source === 'string'
    ) {
      files.set(id, { path, source });
    }
  };
  try {
    const doc = JSON.parse(readRegularText(join(root, MANIFEST)) ?? '{}') as {
      files?: Record<string, unknown>;
    };
    for (const [id, e] of Object.entries(doc.files ?? {})) accept(id, e);
  } catch {
    // No manifest (first run) or an unreadable one: the files are recognised by their marker.
  }
  const journal = readRegularText(join(root, JOURNAL)) ?? '';
  // Replayed in order; a torn last line (killed mid-write) is skipped.
  for (const line of journal.split('\n')) {
    if (!line) continue;
    try {
      const j = JSON.parse(line) as { id: string; removed?: boolean; path?: string; source?: string };
      if (j.removed) files.delete(j.id);
      else accept(j.id, j);
    } catch {}
  }
  return files;
}

function writeManifest(root: string, files: Map<string, ManifestEntry>): void {
  const sorted = [...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const doc = { version: 1, files: Object.fromEntries(sorted) };
  writeAtomic(root, MANIFEST, `${JSON.stringify(doc, null, 1)}\n`);
}

/**
 * Writes `folder/name` whole or not at all (shared/atomic-file.ts): a temp file in the same folder,
 * created with O_EXCL (never through a planted link), then renamed. Not fsync'd: one fsync per file
 * made an export 8x slower. Synchronous, as the whole export is; a temp file a killed run left is
 * swept by its prefix on the next run.
 */
export function writeAtomic(folder: string, name: string, content: string): void {
  writeFileAtomicSync(join(folder, name), content, {
    mode: FILE_MODE,
    exactMode: true,
    fsync: false,
    tempPrefix: TEMP_PREFIX,
  });
}

/** Removes temp files a killed run left in DIR and its year folders (never following links). */
function removeStaleTemps(root: string): void {
  const sweep = (folder: string) => {
    for (const name of readdirSync(folder)) {
      if (name.startsWith(TEMP_PREFIX)) {
        try {
          unlinkSync(join(folder, name));
        } catch {}
      }
    }
  };
  sweep(root);
  for (const name of readdirSync(root)) {
    if (/^\d{4}$/.test(name) && lstatSync(join(root, name)).isDirectory()) sweep(join(root, name));
  }
}

export function sourceHash(m: SourceMeeting, options: ExportOptions, templateText: string): string {
  return createHash('sha256')
    .update(RENDER_VERSION)
    .update('\u0000')
    .update(
      `${options.transcripts ? 't' : ''}${options.privateNotes ? 'p' : ''}\u0000${options.appUrl ?? ''}\u0000`,
    )
    .update(templateText)
    .update('\u0000')
    .update(m.json)
    .update('\u0000')
    .update(options.transcripts ? (m.transcriptJson ?? '') : '')
    .digest('base64url')
    .slice(0, 22);
}

class Writer {
  private journalFd: number | undefined;
  private journalLines: string[] = [];
  private readonly folders = new Map<string, string | Error>();
  /** Year folders this run created: nothing was in them before, so no file needs looking up. */
  readonly created = new Set<string>();

  constructor(readonly root: string) {}

  /** The absolute folder for a year, created when missing; an Error when it must not be used. */
  folder(year: string): string | Error {
    let known = this.folders.get(year);
    if (known !== undefined) return known;
    const abs = join(this.root, year);
    const st = lstatOrUndefined(abs);
    if (st === undefined) {
      mkdirSync(abs, { mode: FOLDER_MODE });
      chmodSync(abs, FOLDER_MODE);
      this.created.add(year);
      known = abs;
    } else if (st.isSymbolicLink()) {
      const real = realpathSync(abs);
      known =
        isInside(this.root, real) && statSync(real).isDirectory()
          ? real
          : new Error(`${year}/ is a symbolic link to ${real}, outside the export folder: not followed`);
    } else if (st.isDirectory()) {
      known = abs;
    } else {
      known = new Error(`${year} is not a folder`);
    }
    this.folders.set(year, known);
    return known;
  }

  /** The absolute path of a relative one, when its folder may be used. */
  abs(rel: string): string | Error {
    const [year, name] = rel.split('/') as [string, string];
    const folder = this.folder(year);
    return folder instanceof Error ? folder : join(folder, name);
  }

  // Lines are appended in batches: a file renamed into place whose line was not written yet is
  // still recognised on the next run (its marker, its content compared), so a batch lost to a
  // kill costs a comparison, never a wrong file.
  journal(line: object): void {
    this.journalFd ??= openRegular(
      join(this.root, JOURNAL),
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,
      FILE_MODE,
    );
    this.journalLines.push(`${JSON.stringify(line)}\n`);
    if (this.journalLines.length >= 64) this.flushJournal();
  }

  private flushJournal(): void {
    if (this.journalFd === undefined || this.journalLines.length === 0) return;
    writeSync(this.journalFd, this.journalLines.join(''));
    this.journalLines = [];
  }

  get journaled(): boolean {
    return this.journalFd !== undefined;
  }

  finish(files: Map<string, ManifestEntry>, mustWrite: boolean): void {
    this.flushJournal();
    if (this.journalFd !== undefined) closeSync(this.journalFd);
    if (this.journalFd !== undefined || mustWrite) {
      writeManifest(this.root, files);
      try {
        unlinkSync(join(this.root, JOURNAL));
      } catch {}
    }
  }
}

/** A regular file's text (never through a link); undefined when there is none. */
function readRegular(path: string): { text?: string; link?: boolean } {
  const st = lstatOrUndefined(path);
  if (!st) return {};
  if (!st.isFile()) return { link: true };
  const text = readRegularText(path);
  return text === undefined ? { link: true } : { text };
}

function removeRegular(path: string, root: string): boolean {
  const st = lstatOrUndefined(path);
  if (!st?.isFile()) return false;
  unlinkSync(path);
  // A year folder left empty goes too (a clean export would not have it).
  const folder = path.slice(0, path.lastIndexOf(sep));
  if (folder !== root) {
    try {
      rmdirSync(folder);
    } catch {}
  }
  return true;
}

/** One export run: its folder, options and writer, the manifest as it goes, and the summary. */
interface ExportRun {
  root: string;
  options: ExportOptions;
  templateText: string;
  w: Writer;
  files: Map<string, ManifestEntry>;
  summary: ExportSummary;
}

function emptySummary(root: string, mirrorComplete: boolean): ExportSummary {
  return {
    dir: root,
    written: 0,
    unchanged: 0,
    moved: 0,
    deleted: 0,
    pruned: 0,
    keptWithNotes: 0,
    notInMirror: 0,
    mirrorComplete,
    failed: 0,
    paths: { written: [], moved: [], deleted: [], pruned: [], keptWithNotes: [], notInMirror: [] },
    problems: [],
  };
}

function problem(run: ExportRun, id: string, path: string, reason: string): void {
  const p = { id, path, reason };
  run.summary.problems.push(p);
  run.summary.failed += 1;
  run.options.onProblem?.(p);
}

/**
 * Files of meetings the mirror does not have are counted and kept; an incomplete mirror and such
 * files are said before the first file, while no progress line is shown.
 */
function warnBeforeWriting(run: ExportRun, input: ExportInput): void {
  const { summary, options } = run;
  for (const [id, entry] of run.files) {
    if (input.paths.has(id) || input.deleted.ids.has(id)) continue;
    summary.notInMirror += 1;
    summary.paths.notInMirror.push(entry.path);
  }
  if (!summary.mirrorComplete) {
    options.onWarning(
      `the mirror is incomplete (no sync has fetched the whole meetings list yet)${options.prune ? ': --prune removes nothing' : ''}; run \`mtg sync\``,
    );
  }
  if (summary.notInMirror > 0) {
    const n = summary.notInMirror;
    options.onWarning(
      `${n} ${n === 1 ? 'file' : 'files'} of meetings this mirror does not have: kept (run \`mtg sync\` to complete the mirror)`,
    );
  }
}

/** The user's kept text for a meeting's file, the file's text now, and the file it moves from. */
interface KeptText {
  kept: string;
  existing: string | undefined;
  from: string | undefined;
  fromAbs: string | undefined;
}

/**
 * The kept text: from the file at the target when it is ours (a killed run may have put it there
 * already), else from the file the meeting had before (a rename moves it). A string: why the
 * target is not touched.
 */
function keptTextFor(
  run: ExportRun,
  target: string,
  abs: string,
  entry: ManifestEntry | undefined,
): KeptText | string {
  let kept = '';
  let existing: string | undefined;
  const [year] = target.split('/') as [string];
  const atTarget = !entry && run.w.created.has(year) ? {} : readRegular(abs);
  if (atTarget.link) return 'is a symbolic link or not a regular file: not followed, not replaced';
  if (atTarget.text !== undefined) {
    const split = splitKept(atTarget.text);
    if (!split) return `exists and was not written by mtg (no "${KEPT_MARKER}" line): left as it is`;
    kept = split.kept;
    existing = atTarget.text;
  }
  const from = entry && entry.path !== target ? entry.path : undefined;
  let fromAbs: string | undefined;
  if (from) {
    const a = run.w.abs(from);
    if (!(a instanceof Error)) {
      fromAbs = a;
      if (existing === undefined) {
        const old = readRegular(a);
        const split = old.text === undefined ? undefined : splitKept(old.text);
        if (split) kept = split.kept;
      }
    }
  }
  return { kept, existing, from, fromAbs };
}

/** One meeting's file: unchanged when made from the same source, else written (or moved) whole. */
function exportMeeting(run: ExportRun, m: SourceMeeting, target: string): void {
  const { options, summary, files, w } = run;
  const source = sourceHash(m, options, run.templateText);
  const entry = files.get(m.id);
  const abs = w.abs(target);
  if (abs instanceof Error) {
    problem(run, m.id, target, abs.message);
    return;
  }
  if (entry && entry.path === target && entry.source === source && lstatOrUndefined(abs)?.isFile()) {
    summary.unchanged += 1;
    return;
  }
  const generated = renderMeeting(m.parse(), options, options.template);
  const found = keptTextFor(run, target, abs, entry);
  if (typeof found === 'string') {
    problem(run, m.id, target, found);
    return;
  }
  const { kept, existing, from, fromAbs } = found;
  const content = generated + kept;
  try {
    if (content !== existing) {
      const [year, name] = target.split('/') as [string, string];
      writeAtomic(w.folder(year) as string, name, content);
    }
    if (fromAbs) removeRegular(fromAbs, run.root);
  } catch (err) {
    problem(run, m.id, target, (err as Error).message);
    return;
  }
  files.set(m.id, { path: target, source });
  w.journal({ id: m.id, path: target, source });
  if (content !== existing || from) {
    summary.written += 1;
    summary.paths.written.push(target);
    if (from) {
      summary.moved += 1;
      summary.paths.moved.push({ from, to: target });
    }
  } else {
    summary.unchanged += 1;
  }
}

/**
 * A file here whose meeting the mirror knows was deleted on the server (a tombstone: only a
 * completed walk sets one, so a missing meeting is never taken for a deleted one): counted, and
 * with --prune on a complete mirror removed, unless it holds the user's own text.
 */
function pruneDeleted(run: ExportRun, id: string, entry: ManifestEntry): void {
  const { summary, options } = run;
  if (!options.prune || !summary.mirrorComplete) {
    summary.deleted += 1;
    summary.paths.deleted.push(entry.path);
    return;
  }
  const a = run.w.abs(entry.path);
  if (a instanceof Error) {
    problem(run, id, entry.path, a.message);
    return;
  }
  const st = lstatOrUndefined(a);
  if (st && !st.isFile()) {
    problem(run, id, entry.path, 'is not a regular file: not removed');
    return;
  }
  // The user's own text (below the kept line, or a file whose kept line is gone, so mtg cannot
  // tell its part from theirs) is never removed: the file stays, reported on each run.
  const text = st ? readRegular(a).text : undefined;
  const split = text === undefined ? undefined : splitKept(text);
  if (text !== undefined && split?.kept.trim() !== '') {
    summary.deleted += 1;
    summary.keptWithNotes += 1;
    summary.paths.keptWithNotes.push(entry.path);
    options.onWarning(
      split
        ? `${entry.path}: its meeting was deleted on the server, but the file holds your notes below the kept line: kept, not pruned`
        : `${entry.path}: its meeting was deleted on the server, but the file has no "${KEPT_MARKER}" line (edited by hand?): kept, not pruned`,
    );
    return;
  }
  removeRegular(a, run.root);
  run.files.delete(id);
  run.w.journal({ id, removed: true });
  summary.deleted += 1;
  summary.pruned += 1;
  summary.paths.pruned.push(entry.path);
}

export function exportMarkdown(
  input: ExportInput,
  options: ExportOptions,
  templateText: string,
): ExportSummary {
  const root = options.dir;
  checkOwnFiles(root);
  removeStaleTemps(root);
  const files = readManifest(root);
  let journalExisted = false;
  try {
    journalExisted = lstatSync(join(root, JOURNAL)).isFile();
  } catch {}
  const summary = emptySummary(root, input.deleted.listComplete);
  const run: ExportRun = { root, options, templateText, w: new Writer(root), files, summary };
  warnBeforeWriting(run, input);
  let done = 0;
  for (const m of input.meetings) {
    done += 1;
    options.onProgress?.(done, input.total);
    const target = input.paths.get(m.id);
    if (target) exportMeeting(run, m, target);
  }
  for (const [id, entry] of [...files.entries()]) {
    if (!input.paths.has(id) && input.deleted.ids.has(id)) pruneDeleted(run, id, entry);
  }
  run.w.finish(files, journalExisted || !existsManifest(root));
  return summary;
}

function existsManifest(root: string): boolean {
  return lstatOrUndefined(join(root, MANIFEST)) !== undefined;
}
