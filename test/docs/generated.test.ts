// The command reference (docs/commands/) and the man pages (man/) are generated from the command
// tree by `npm run docs` (scripts/gen-docs.mjs, src/cli/help-docs.ts) and committed: a change of a
// command, option or example that was not followed by `npm run docs` fails here, as a stale
// completion script does in test/commands/completion/completion.test.ts.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { GENERATED_DIRS, generateDocs } from '../../src/cli/help-docs.js';
import { HELP_TOPICS } from '../../src/cli/help-topics.js';
import { isGroup } from '../../src/cli/spec.js';
import { commandTree } from '../../src/commands/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
const STALE = 'is stale: run `npm run docs` and commit the result';
const files = generateDocs(commandTree);

function walk(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? walk(join(folder, e.name))
      : [relative(ROOT, join(folder, e.name)).split('\\').join('/')],
  );
}

describe('the generated reference and man pages', () => {
  it.each([...files.keys()])('%s is what the command tree generates', (name) => {
    const path = join(ROOT, name);
    expect(existsSync(path), `${name} is missing: run \`npm run docs\``).toBe(true);
    expect(readFileSync(path, 'utf8'), `${name} ${STALE}`).toBe(files.get(name));
  });

  it('holds no file of a command that no longer exists', () => {
    const extra = GENERATED_DIRS.flatMap((d) => walk(join(ROOT, d))).filter((name) => !files.has(name));
    expect(extra, `not generated any more: run \`npm run docs\` (it removes them)`).toEqual([]);
  });

  it("package.json's man field lists every man page (npm install -g installs them)", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      man?: string[];
      files?: string[];
    };
    const pages = [...files.keys()].filter((n) => n.startsWith('man/')).map((n) => `./${n}`);
    expect(pkg.man, `package.json man ${STALE}`).toEqual(pages);
    expect(pkg.files).toContain('man');
  });

  it('documents every command and alias, every option and every topic', () => {
    const index = files.get('docs/commands/README.md') ?? '';
    for (const node of commandTree) {
      const commands = isGroup(node)
        ? node.commands.map((c) => [`${node.name} ${c.name}`, c] as const)
        : [[node.name, node] as const];
      const page = files.get(`docs/commands/${node.name}.md`) ?? '';
      for (const alias of node.aliases ?? []) expect(page).toContain(`mtg ${alias}`);
      for (const [path, spec] of commands) {
        expect(index).toContain(`mtg ${path}`);
        const man = files.get(`man/mtg-${path.replace(/ /g, '-')}.1`) ?? '';
        expect(man, path).toContain('.SH OPTIONS');
        for (const alias of spec.aliases ?? []) expect(page, `${path} alias ${alias}`).toContain(alias);
        for (const option of spec.options ?? [])
          expect(page, `${path} ${option.flags}`).toContain(option.flags);
        for (const example of spec.examples) expect(page, `${path} example`).toContain(example);
      }
    }
    for (const topic of HELP_TOPICS)
      expect(files.get(`docs/commands/topics/${topic.name}.md`)).toContain(topic.text.trimEnd());
  });

  // groff comes with man (.ci/run installs man-db where it is missing).
  it('every man page renders without a warning (groff -ww)', async () => {
    for (const name of [...files.keys()].filter((n) => n.startsWith('man/'))) {
      const { stdout, stderr } = await promisify(execFile)('groff', [
        '-man',
        '-Tutf8',
        '-ww',
        '-z',
        join(ROOT, name),
      ]);
      expect(stderr, name).toBe('');
      expect(stdout).toBe('');
    }
  });
});
