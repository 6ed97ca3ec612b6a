// --checkpoint FILE: after every complete page, record where the export stands (next link, items and
// bytes written) so that the same command run again continues from there. The record is replaced
// atomically and fsync'd (shared/atomic-file.ts), so a crash leaves the last whole record; the
// partial file is truncated back to the recorded bytes on resume, which drops a half-written page.
// Version 2 writes the rows to a partial file beside -o FILE (recorded as `partial`), renamed onto
// FILE when the export completes, so FILE is never a truncated result; version 1 (mtg before it)
// appended to FILE itself, and such a record still resumes there.

import { access, readFile, unlink } from 'node:fs/promises';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UsageError } from '../shared/errors.js';

export interface CheckpointRecord {
  /** 2; a record read from version 1 is returned with `partial` undefined (rows in FILE itself). */
  version: 1 | 2;
  /** What was being exported; a checkpoint of another command, filter or format is refused. */
  signature: string;
  /** The next page's URL, or null when the export finished. */
  next: string | null;
  items: number;
  bytes: number;
  /** Where the rows are until the export completes (beside -o FILE, after links); v2 only. */
  partial?: string;
}

export async function readCheckpoint(path: string, signature: string): Promise<CheckpointRecord | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`Cannot read checkpoint ${path}: ${(err as Error).message}`);
  }
  let record: CheckpointRecord;
  try {
    record = JSON.parse(text) as CheckpointRecord;
  } catch {
    throw new UsageError(`Checkpoint ${path} is not valid JSON; remove it to start over`);
  }
  const known =
    (record.version === 1 && record.partial === undefined) ||
    (record.version === 2 && typeof record.partial === 'string');
  if (!known || typeof record.items !== 'number' || typeof record.bytes !== 'number') {
    throw new UsageError(`Checkpoint ${path} is not an mtg checkpoint; remove it to start over`);
  }
  if (record.signature !== signature) {
    throw new UsageError(
      `Checkpoint ${path} belongs to another export (other command, filters, format or output); remove it to start over`,
    );
  }
  return record;
}

export async function writeCheckpoint(path: string, record: CheckpointRecord): Promise<void> {
  try {
    // A full disk leaves no temp file behind; the previous record stays as it was.
    await writeFileAtomic(path, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  } catch (err) {
    const { writeFailure } = await import('../output/destination.js');
    throw writeFailure(err, path);
  }
}

export async function removeCheckpoint(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

/** Where a checkpointed export appends (see the top of this file), and the file it becomes. */
export interface CheckpointFiles {
  /** The partial file (for a version 1 record: FILE itself). */
  path: string;
  /** -o FILE after links; undefined when `path` is FILE itself. */
  finalTarget: string | undefined;
}

/**
 * The files of a checkpointed export to -o `output`: a new export (no record) and a version 2
 * record use the partial file beside FILE; a version 1 record resumes in FILE, where its rows are.
 */
export async function checkpointFiles(
  output: string,
  checkpoint: string,
  record: CheckpointRecord | undefined,
): Promise<CheckpointFiles> {
  const { partialPathFor, resolveDestination } = await import('../output/destination.js');
  const dest = await resolveDestination(output, '-o');
  if (dest.kind !== 'file') throw new UsageError(`--checkpoint needs -o to be a regular file`);
  if (record?.version === 1) return { path: dest.path, finalTarget: undefined };
  const partial = partialPathFor(dest.path);
  // A record names its own partial file; one that is not where this -o keeps it is not followed.
  if (record?.partial !== undefined && record.partial !== partial && record.partial !== dest.path) {
    throw new UsageError(
      `Checkpoint ${checkpoint} keeps its rows in ${record.partial}, not beside -o ${output}; remove it to start over`,
    );
  }
  const path = record?.partial ?? partial;
  return { path, finalTarget: path === dest.path ? undefined : dest.path };
}

/** Whether a file is there (a finished export's partial file is gone once renamed onto FILE). */
export async function fileExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
