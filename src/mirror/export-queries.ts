// Reads of `mtg export markdown`: the meetings (live and tombstoned) and their transcripts. The
// only SQL of the export; it goes through the mirror's open/driver modules like every reader.

import { UsageError } from '../shared/errors.js';
import type { Db } from './driver.js';
import { NoMirrorFileError } from './errors.js';
import type { Mirror } from './open.js';

export interface MeetingName {
  id: string;
  name: string | null;
  createdAt: string | null;
}

export interface MeetingRow {
  id: string;
  json: string;
  createdAt: string | null;
  transcriptJson: string | null;
}

/** The profile's mirror opened read-only by `open`; none yet is exit 2 with the way to make one. */
export async function openExportMirror(open: () => Promise<Mirror>): Promise<Mirror> {
  try {
    return await open();
  } catch (err) {
    if (err instanceof NoMirrorFileError)
      throw new UsageError(`no mirror for profile ${err.profile}: run \`mtg sync\``);
    throw err;
  }
}

/** Every live meeting's ID, name and date, in ID order (file names are assigned over all of them). */
export function liveMeetingNames(db: Db): MeetingName[] {
  return db
    .prepare<MeetingName>(
      'SELECT id, name, created_at AS createdAt FROM meetings WHERE deleted_at IS NULL ORDER BY id',
    )
    .all();
}

/** Live meetings with their transcripts, in ID order (the window is applied by the caller on createdAt). */
export function liveMeetings(db: Db): IterableIterator<MeetingRow> {
  return db
    .prepare<MeetingRow>(
      `SELECT m.id, m.json, m.created_at AS createdAt, t.json AS transcriptJson
         FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id
        WHERE m.deleted_at IS NULL ORDER BY m.id`,
    )
    .iterate();
}

/**
 * What the mirror knows of deleted meetings. A meeting the mirror lacks is not known to be deleted
 * (never synced, the mirror reset, a walk not finished): only a tombstone, which a completed walk
 * of the meetings list sets, says so. `listComplete`: such a walk ever completed.
 */
export interface MeetingDeletions {
  ids: ReadonlySet<string>;
  listComplete: boolean;
}

/** Tombstoned meeting IDs, and whether a walk of the meetings list ever completed. */
export function deletedMeetingIds(db: Db): MeetingDeletions {
  const ids = new Set(
    db
      .prepare<{ id: string }>('SELECT id FROM meetings WHERE deleted_at IS NOT NULL')
      .all()
      .map((r) => r.id),
  );
  const walked = db
    .prepare<{ one: number }>(
      "SELECT 1 AS one FROM walks WHERE resource = 'meetings' AND completed_at IS NOT NULL LIMIT 1",
    )
    .get();
  return { ids, listComplete: walked !== undefined };
}
