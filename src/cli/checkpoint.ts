// --checkpoint FILE: after every complete page, record where the export stands (next link, items and
// bytes written) so that the same command run again continues from there. The record is replaced
// atomically and fsync'd (shared/atomic-file.ts), so a crash leaves the last whole record; the
// output file is truncated back to the recorded bytes on resume, which drops a half-written page.

import { readFile, unlink } from 'node:fs/promises';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UsageError } from '../shared/errors.js';

export interface CheckpointRecord {
  version: 1;
  /** What was being exported; a checkpoint of another command, filter or format is refused. */
  signature: string;
  /** The next page's URL, or null when the export finished. */
  next: string | null;
  items: number;
  bytes: number;
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
  if (record.version !== 1 || typeof record.items !== 'number' || typeof record.bytes !== 'number') {
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
