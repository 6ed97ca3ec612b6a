// The README and the guides link only to files that exist (and to headings that exist in them), and
// a newcomer reaches any command's options in two clicks: README -> the command reference's index ->
// the command's page.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isGroup } from '../../src/cli/spec.js';
import { commandTree } from '../../src/commands/index.js';

const ROOT = join(import.meta.dirname, '..', '..');

function markdownFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? markdownFiles(`${folder}/${e.name}`)
      : e.name.endsWith('.md')
        ? [`${folder}/${e.name}`]
        : [],
  );
}

/** GitHub's anchors of a Markdown file's headings. */
function anchors(text: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (heading?.[1]) {
      found.add(
        heading[1]
          .toLowerCase()
          .replace(/[^\p{L}\p{N}\- _]/gu, '')
          .replace(/ /g, '-'),
      );
    }
  }
  return found;
}

/** Relative links [text](target) outside code. */
function links(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((t) => !/^[a-z]+:/.test(t));
}

const FILES = ['README.md', ...markdownFiles('docs')];

describe('links of the documentation', () => {
  it.each(FILES)('%s links to files and headings that exist', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const link of links(text)) {
      const [path = '', hash] = link.split('#');
      const target =
        path === ''
          ? file
          : normalize(join(dirname(file), path))
              .split('\\')
              .join('/');
      expect(existsSync(join(ROOT, target)), `${file}: ${link}`).toBe(true);
      if (hash && target.endsWith('.md')) {
        expect(anchors(readFileSync(join(ROOT, target), 'utf8')).has(hash), `${file}: ${link}`).toBe(true);
      }
    }
  });

  it('the README stays short (at most 15 KB)', () => {
    expect(readFileSync(join(ROOT, 'README.md')).length).toBeLessThanOrEqual(15 * 1024);
  });

  it("reaches every command's options in two clicks: README -> index -> page", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(links(readme)).toContain('docs/commands/README.md');
    const index = readFileSync(join(ROOT, 'docs/commands/README.md'), 'utf8');
    const targets = links(index);
    for (const node of commandTree) {
      const paths = isGroup(node) ? node.commands.map((c) => `${node.name} ${c.name}`) : [node.name];
      for (const path of paths) {
        const link = targets.find(
          (t) => t.startsWith(`${node.name}.md`) && (t.includes(path.replace(/ /g, '-')) || !t.includes('#')),
        );
        expect(link, path).toBeDefined();
        const page = readFileSync(join(ROOT, 'docs/commands', (link ?? '').split('#')[0] ?? ''), 'utf8');
        expect(page, path).toContain(`## mtg ${path}`);
        expect(page, path).toContain('Options:');
      }
    }
  });
});
