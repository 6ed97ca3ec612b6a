// The mirror's schema (public: `mtg sql` reads it, docs/mirror.md documents it under "The schema")
// and its migrations.
// `PRAGMA user_version` is the schema version; openMirror() runs the missing migrations in one
// transaction. Never edit a shipped migration: add the next one. IDs are TEXT so that integers
// beyond 2^53 keep their exact digits; every `json` column is the object as the API last sent it.
// Beyond the agreed columns: meetings.passage_base (the meeting's block of `passages` rowids, so
// its passages are replaced by a rowid range rather than a scan of the index), walks.items (the
// position of the walk's next item), walks.abandoned_at (a walk given up by --full), runs.error (why a run stopped early); walks,
// runs and passes ids are never reused (AUTOINCREMENT), since items keep the id of the walk that saw them.
// V6 (schema-passes.ts): the sync's passes, stored. V7 (search-vocab.ts): the typo lookup's vocabulary.
// V8: the index rebuilt, its text as the terminal shows it. V9: rebuilt, a heading with its paragraph.

import type { Db } from './driver.js';
import { V6 } from './schema-passes.js';
import { V7, VOCAB_AFTER } from './search-vocab.js';

const V1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE meetings (
  id TEXT PRIMARY KEY,
  json TEXT NOT NULL,
  name TEXT, created_at TEXT, updated_at TEXT,
  position INTEGER,
  seen_walk INTEGER,
  deleted_at TEXT,
  passage_base INTEGER
);
CREATE UNIQUE INDEX meetings_passage_base ON meetings(passage_base);
CREATE INDEX meetings_position ON meetings(position);
CREATE INDEX meetings_created_at ON meetings(created_at);

CREATE TABLE transcripts (
  meeting_id TEXT PRIMARY KEY,
  json TEXT NOT NULL,
  for_updated_at TEXT,
  fetched_at TEXT NOT NULL
);

CREATE TABLE action_items (
  id TEXT PRIMARY KEY, json TEXT NOT NULL, status TEXT,
  mine INTEGER NOT NULL DEFAULT 0,
  position INTEGER, seen_walk INTEGER, mine_walk INTEGER, deleted_at TEXT
);
CREATE INDEX action_items_position ON action_items(position);

CREATE TABLE people (id TEXT PRIMARY KEY, json TEXT NOT NULL, position INTEGER, seen_walk INTEGER, deleted_at TEXT);
CREATE INDEX people_position ON people(position);

CREATE TABLE companies (domain TEXT PRIMARY KEY, json TEXT NOT NULL, position INTEGER, seen_walk INTEGER, deleted_at TEXT);
CREATE INDEX companies_position ON companies(position);

CREATE TABLE walks (
  id INTEGER PRIMARY KEY AUTOINCREMENT, resource TEXT NOT NULL, query TEXT NOT NULL,
  started_at TEXT NOT NULL, next_url TEXT, pages INTEGER NOT NULL DEFAULT 0,
  completed_at TEXT, run INTEGER,
  items INTEGER NOT NULL DEFAULT 0,
  abandoned_at TEXT
);
CREATE INDEX walks_open ON walks(resource, query, completed_at);

CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, started_at TEXT NOT NULL, finished_at TEXT,
  complete INTEGER NOT NULL DEFAULT 0, requests INTEGER NOT NULL DEFAULT 0, summary TEXT,
  error TEXT);

CREATE TABLE changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  run INTEGER NOT NULL, at TEXT NOT NULL,
  resource TEXT NOT NULL,
  id TEXT NOT NULL,
  change TEXT NOT NULL,
  fields TEXT NOT NULL,
  item TEXT
);
CREATE INDEX changes_run ON changes(run);
CREATE INDEX changes_at ON changes(at);

CREATE VIRTUAL TABLE passages USING fts5(
  text,
  meeting_id UNINDEXED,
  kind UNINDEXED,
  speaker UNINDEXED, timestamp UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2'
);
`;

/**
 * V2: the full-text index stops storing a second copy of every passage's text (about a third of a
 * mirror's size): `passages` becomes contentless (`content=''`), its UNINDEXED columns still stored
 * and readable (`contentless_unindexed=1`, SQLite >= 3.47) and its rows deletable by rowid
 * (`contentless_delete=1`, >= 3.43). `text` now reads as NULL; search.ts takes a hit's text from the
 * meeting's JSON (passage i of meetingPassages() is rowid passage_base * 2^20 + i). The v1 index's
 * rows are copied over, text included, so a v1 mirror is converted in this one transaction without
 * a sync; a crash before its commit leaves the v1 file as it was.
 */
const V2 = `
ALTER TABLE passages RENAME TO passages_v1;
CREATE VIRTUAL TABLE passages USING fts5(
  text,
  meeting_id UNINDEXED,
  kind UNINDEXED,
  speaker UNINDEXED, timestamp UNINDEXED,
  content = '', contentless_delete = 1, contentless_unindexed = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO passages(rowid, text, meeting_id, kind, speaker, timestamp)
  SELECT rowid, text, meeting_id, kind, speaker, timestamp FROM passages_v1 ORDER BY rowid;
DROP TABLE passages_v1;
`;

/**
 * V3: text without spaces between words (Chinese, Japanese, Korean) is indexed one character per
 * token (cjk.ts), so any run of it is found. No table changes; the passages of the meetings whose
 * text holds such characters are written again from the stored JSON (the index keeps no text to
 * convert); every other passage is tokenized as before and stays. Same transaction as the version.
 */
function V3(_db: Db): void {
  // Was: the passages of meetings holding CJK text written again. V4 drops the index and rebuilds
  // every meeting's passages (CJK text included) from the stored JSON, so a mirror migrating
  // through V3 has nothing to do here (and the writer of today's index could not write V3's).
}

/**
 * V4: the index that answers questions (search.ts). Rows are windows of neighbouring transcript
 * entries (passages.ts: indexRows), with their speakers in an indexed column, and nothing else: the
 * rowid says the meeting (its passage_base), the kind and the first passage (passages.ts: rowIdOf),
 * so the index stores no column of its own (smaller, and no content table). Words are stemmed
 * (FTS5's porter tokenizer over unicode61, accents and case folded); `passages_terms` lists the
 * indexed terms (fts5vocab: the typo correction's candidates and the words' rarity). The old index
 * cannot be converted (it keeps no text): it is emptied ('delete-all': SQLite leaves the content
 * table of a contentless_unindexed table behind on DROP, and defensive mode forbids dropping it:
 * it stays, empty) and dropped here, in one short transaction, and rebuilt
 * from the stored JSON by the first search (passages.ts: buildIndex), in batches that survive a
 * kill; a live meeting whose passage_base is NULL is not indexed yet.
 */
const V4 = `
DROP TABLE IF EXISTS passages_terms;
INSERT INTO passages(passages) VALUES ('delete-all');
DROP TABLE passages;
CREATE VIRTUAL TABLE passages USING fts5(
  text,
  speakers,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE passages_terms USING fts5vocab(passages, row);
UPDATE meetings SET passage_base = NULL;
`;

/**
 * V5: a company's detail (GET /company/{domain}: its externalLinks, which no list carries), so that
 * `companies view --offline` answers what the API does. detail_for is the summary JSON the detail
 * was fetched with (a changed summary fetches it again), detail_fetched_at when (--full). NULL
 * until the next sync fetches it (sync/details.ts).
 */
function V5(db: Db): void {
  // Only the columns missing: a file taken back to an older user_version by hand (as tests make
  // the mirrors of older releases) may have them already.
  const has = new Set(
    db
      .prepare<{ name: string }>("SELECT name FROM pragma_table_info('companies')")
      .all()
      .map((c) => c.name),
  );
  for (const column of ['detail_json', 'detail_for', 'detail_fetched_at']) {
    if (!has.has(column)) db.exec(`ALTER TABLE companies ADD COLUMN ${column} TEXT`);
  }
}

/**
 * V8: the index's text as the terminal shows it: a passage's text and speaker are sanitized
 * (src/shared/sanitize.ts, as every output of server text is) before they are indexed or shown, so
 * an escape sequence goes whole (an OSC title "ESC ] 0;pwned BEL" in a meeting's name was indexed,
 * found by "pwned", and shown in snippets as "0;pwned"). A passage that held only a sequence is
 * none now, which moves the rowids of the meeting's next passages: the index is emptied here and
 * rebuilt from the stored JSON by the first search (passages.ts: buildIndex: offline, resumable, as
 * after V4), the typo vocabulary refilled by the index's writer with it.
 */
const V8 = `
INSERT INTO passages(passages) VALUES ('delete-all');
UPDATE meetings SET passage_base = NULL;
DELETE FROM search_vocab;
DELETE FROM meta WHERE key = '${VOCAB_AFTER}';
`;

/**
 * V9: a paragraph of notes that is only headings ("## Decisions") is indexed with the paragraph it
 * introduces, no longer as a passage of its own (passages.ts: paragraphs), which moves the rowids of
 * the meeting's next passages: the index is emptied and rebuilt from the stored JSON by the first
 * search, offline and resumable, as after V8.
 */
const V9 = V8;

/** migrations[i] takes the schema from version i to i + 1: SQL, or a step over the rows. */
const migrations: readonly (string | ((db: Db) => void))[] = [V1, V2, V3, V4, V5, V6, V7, V8, V9];

export const SCHEMA_VERSION = migrations.length;

/** The tables of a current mirror, in the order `mtg sql --schema` and docs/mirror.md ("The schema") list them. */
export const TABLES = [
  'meta',
  'meetings',
  'transcripts',
  'action_items',
  'people',
  'companies',
  'walks',
  'runs',
  'passes',
  'pass_lists',
  'changes',
  'passages',
  'search_vocab',
] as const;

export function schemaVersion(db: Db): number {
  return Number(db.pragma('user_version'));
}

/** Bring the schema to SCHEMA_VERSION in one transaction; returns the version found. */
export function migrate(db: Db): number {
  let found = schemaVersion(db);
  if (found >= SCHEMA_VERSION) return found;
  db.transaction(() => {
    // Read again under the write lock: another process may have upgraded the file between the
    // read above and BEGIN IMMEDIATE (two reads started together after an mtg update).
    found = schemaVersion(db);
    for (let v = found; v < SCHEMA_VERSION; v++) {
      const step = migrations[v]!;
      if (typeof step === 'string') db.exec(step);
      else step(db);
    }
    // user_version is part of the database header: it commits (or rolls back) with the DDL.
    if (found < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  });
  if (found >= 1 && found < 2) {
    // V2 dropped the v1 index (about a third of the file): give its pages back, once. VACUUM is
    // atomic too; when it cannot run (a reader holds the file, the disk is full) the pages stay
    // free for later growth.
    try {
      db.exec('VACUUM');
    } catch {
      // Not needed for correctness.
    }
  }
  return found;
}
