// The export folder on a shared machine: no file of DIR is opened through a link (a journal planted
// as `DIR/.mtg-export.journal -> ~/.bashrc` had JSON lines with server-chosen IDs appended to the
// target), and what mtg writes there is private (0700 folders, 0600 files) whatever the umask.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assignPaths } from '../../src/export/naming.js';
import { defaultTemplate, loadTemplateEngine } from '../../src/export/render.js';
import { exportMarkdown, MANIFEST, resolveExportDir } from '../../src/export/write.js';
import { UsageError } from '../../src/shared/errors.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(loadTemplateEngine);
const umask = process.umask();
afterEach(() => {
  process.umask(umask);
});

function meeting(id: string, name: string) {
  return {
    id,
    name,
    createdAt: '2026-03-04T09:30:00.000Z',
    updatedAt: '2026-03-04T10:30:00.000Z',
    duration: 60,
    url: null,
    tags: [],
    icalUid: null,
    attendees: [],
    notes: 'Notes',
    privateNotes: 'private',
    actionItems: [],
    insights: {},
    linkAccess: null,
  };
}

function run(dir: string, ms: ReturnType<typeof meeting>[]) {
  const sources = ms.map((m) => {
    const json = JSON.stringify(m);
    return {
      id: m.id,
      createdAt: m.createdAt,
      json,
      transcriptJson: null,
      parse: () => ({ id: m.id, meeting: JSON.parse(json) }),
    };
  });
  return exportMarkdown(
    {
      paths: assignPaths(ms),
      meetings: sources,
      total: sources.length,
      deleted: { ids: new Set(), listComplete: true },
    },
    { dir, prune: false, transcripts: false, privateNotes: true, onWarning: () => {} },
    defaultTemplate,
  );
}

const tmp = () => realpathSync(tempDir('mtg-export-safety-'));
const mode = (path: string) => statSync(path).mode & 0o7777;

describe('the export writes no file of DIR through a link', () => {
  for (const name of ['.mtg-export.journal', MANIFEST]) {
    it(`refuses a planted ${name} link in one line, and leaves its target as it was`, () => {
      const dir = tmp();
      const victim = join(tmp(), '.bashrc');
      writeFileSync(victim, 'alias ls=ls\n');
      symlinkSync(victim, join(dir, name));
      let thrown: unknown;
      try {
        run(dir, [meeting('mtg_000000000001', 'a')]);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(UsageError);
      expect((thrown as Error).message).toBe(
        `${join(dir, name)} is a symbolic link: mtg does not write through it; remove it and run again`,
      );
      expect(readFileSync(victim, 'utf8')).toBe('alias ls=ls\n');
      // Nothing was written: the link is still there and no meeting file was made.
      expect(lstatSync(join(dir, name)).isSymbolicLink()).toBe(true);
      expect(existsSync(join(dir, '2026'))).toBe(false);
    });
  }

  it('refuses a journal that is a folder (not a regular file) the same way', () => {
    const dir = tmp();
    mkdirSync(join(dir, '.mtg-export.journal'));
    expect(() => run(dir, [meeting('mtg_000000000002', 'a')])).toThrow(
      `${join(dir, '.mtg-export.journal')} is not a regular file: mtg does not write through it`,
    );
  });
});

describe('the modes of what the export writes', () => {
  for (const mask of [0o022, 0o000]) {
    it(`umask ${mask.toString(8).padStart(3, '0')}: folders it creates are 0700, its files 0600`, () => {
      process.umask(mask);
      const dir = join(tmp(), 'notes', 'meetings');
      const root = resolveExportDir(dir);
      const m = meeting('mtg_000000000003', 'a');
      run(root, [m]);
      expect(mode(join(root, '..'))).toBe(0o700);
      expect(mode(root)).toBe(0o700);
      expect(mode(join(root, '2026'))).toBe(0o700);
      const files = readdirSync(join(root, '2026'));
      expect(files).toHaveLength(1);
      expect(mode(join(root, '2026', files[0]!))).toBe(0o600);
      expect(mode(join(root, MANIFEST))).toBe(0o600);
      // A rewrite (a changed meeting) and an existing file keep it so.
      run(root, [{ ...m, notes: 'changed' }]);
      expect(mode(join(root, '2026', readdirSync(join(root, '2026'))[0]!))).toBe(0o600);
      expect(mode(join(root, MANIFEST))).toBe(0o600);
    });
  }

  it('an existing folder keeps its mode; nothing written is group- or world-writable', () => {
    process.umask(0o000);
    const root = tmp();
    chmodSync(root, 0o755);
    mkdirSync(join(root, '2026'));
    chmodSync(join(root, '2026'), 0o750);
    const m = meeting('mtg_000000000004', 'b');
    run(resolveExportDir(root), [m]);
    expect(mode(root)).toBe(0o755);
    expect(mode(join(root, '2026'))).toBe(0o750);
    const file = join(root, '2026', readdirSync(join(root, '2026'))[0]!);
    // A file the user opened up is made private again when mtg rewrites it.
    chmodSync(file, 0o666);
    run(root, [{ ...m, notes: 'changed' }]);
    for (const path of [file, join(root, MANIFEST)]) expect(mode(path) & 0o022, path).toBe(0);
  });
});
