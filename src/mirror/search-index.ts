// The search index of an upgraded mirror, built on first use from what it holds (no request).

import { dirname } from 'node:path';
import { checkWritable, type Mirror, openMirror } from './open.js';
import { buildIndex } from './passages.js';
import { buildVocabulary, vocabularyPending } from './search-vocab.js';

/**
 * The search index of a mirror made by an older mtg is rebuilt from what the mirror holds on first
 * use (no request): `mirror` is the reader's open mirror; when live meetings are not indexed, a
 * read-write connection indexes them in small transactions (a kill loses at most one batch; the
 * next search resumes), progress told through `note`. A mirror this user cannot write is searched
 * as it is (what is indexed), said once. Then the typo lookup's vocabulary (schema 7) is copied from
 * the index the same way (search-vocab.ts: buildVocabulary), progress told through `note`.
 */
export function ensureSearchIndex(mirror: Mirror, note: (line: string) => void): void {
  const unindexed =
    mirror.db
      .prepare<{ n: number }>(
        'SELECT EXISTS (SELECT 1 FROM meetings WHERE passage_base IS NULL AND deleted_at IS NULL) AS n',
      )
      .get()!.n !== 0;
  if (!unindexed && !vocabularyPending(mirror.db)) return;
  try {
    checkWritable(mirror.path);
  } catch {
    // Searched as it is: what is indexed, typos looked up through fts5vocab (search-vocab.ts).
    if (unindexed)
      note(
        `The search index of ${mirror.path} is incomplete and cannot be built here: run \`mtg sync\` as its owner`,
      );
    return;
  }
  const writer = openMirror({
    profile: mirror.profile,
    dataDir: dirname(mirror.path),
    readonly: false,
    create: false,
  });
  try {
    let told = 0;
    const started = Date.now();
    buildIndex(writer.db, (done, total) => {
      if (told === 0)
        note(`Building the search index from the mirror (${total} meetings; once, after an upgrade)…`);
      // A line at most every two seconds, and the last.
      if (done === total || Date.now() - told >= 2000) {
        told = Date.now();
        note(`Search index: ${done}/${total} meetings (${Math.round((Date.now() - started) / 100) / 10}s)`);
      }
    });
    // The typo lookup's vocabulary (schema 7), copied from the index: seconds on a large mirror.
    if (vocabularyPending(writer.db)) {
      note("Listing the search index's words for typo correction (once, after an upgrade)…");
      let toldTerms = Date.now();
      buildVocabulary(writer.db, (terms) => {
        if (Date.now() - toldTerms >= 2000) {
          toldTerms = Date.now();
          note(`Search vocabulary: ${terms} words listed`);
        }
      });
    }
  } finally {
    writer.close();
  }
}
