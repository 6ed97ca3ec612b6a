// QA: the typo hint named words that appear nowhere. A word that matches nothing was replaced by an
// index term with a common ending: "decide" by "decise" (the stem "decis" of "Decisions" plus "e"),
// "decided" by "decised". The hint now names the mirror's word, as written, that the search finds.

import { beforeAll, describe, expect, it } from 'vitest';
import { openMirror } from '../../../src/mirror/open.js';
import { passageWriter } from '../../../src/mirror/passages.js';
import { tempConfigDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';

const NOTES = (i: number) =>
  [
    '## Summary',
    `- Walked through the roadmap of team ${i}.`,
    '## Decisions',
    `1. Finalize the pricing proposal of team ${i}`,
  ].join('\n\n');

let env: Record<string, string>;

beforeAll(() => {
  const dir = tempDir('mtg-find-typos-');
  env = { MTG_DATA_DIR: dir, MTG_CONFIG_DIR: tempConfigDir(), MTG_OFFLINE: '1' };
  const mirror = openMirror({ profile: 'default', dataDir: dir, baseUrl: 'http://127.0.0.1:9' });
  const writer = passageWriter(mirror.db);
  mirror.db.transaction(() => {
    for (let i = 0; i < 5; i++) {
      const id = `m_${i}`;
      const at = `2026-03-0${i + 1}T10:00:00Z`;
      const json = { id, name: `Pricing review ${i}`, createdAt: at, notes: NOTES(i) };
      mirror.db
        .prepare(
          'INSERT INTO meetings(id, json, name, created_at, updated_at, position, seen_walk) VALUES (?, ?, ?, ?, ?, ?, 1)',
        )
        .run(id, JSON.stringify(json), json.name, at, at, i);
      writer.rewrite(id);
    }
  });
  mirror.close();
});

async function find(query: string) {
  const r = await runInProcess(['find', query, '--json', '--limit', '3'], { env });
  expect(r.code, r.stderr).toBe(0);
  return { hits: JSON.parse(r.stdout) as { in: string; snippet: string }[], stderr: r.stderr };
}

describe('find: the typo hint names a word of the mirror', () => {
  it('"decide" and "decided" are said to be searched for as "decisions", a word the notes hold', async () => {
    const { hits, stderr } = await find('what did we decide about pricing?');
    expect(stderr).toContain('"decide" matches nothing; searched for: decisions\n');
    expect(stderr).not.toContain('decise');
    expect(hits[0]!.snippet).toContain('## **Decisions**\n1. Finalize the **pricing** proposal');
    const decided = await find('what was decided');
    expect(decided.stderr).toContain('"decided" matches nothing; searched for: decisions\n');
    expect(decided.stderr).not.toContain('decised');
  });

  it('a misspelt word is said to be searched for as the word written in the mirror', async () => {
    expect((await find('prcing')).stderr).toContain('"prcing" matches nothing; searched for: pricing\n');
    expect((await find('proposl')).stderr).toContain('"proposl" matches nothing; searched for: proposal\n');
    expect((await find('roadmpa')).stderr).toContain('"roadmpa" matches nothing; searched for: roadmap\n');
  });
});
