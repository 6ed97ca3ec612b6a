// The mirror's `meta` table (key → text): the one place its statements are written.
import type { Db } from './db.js';

export function readMeta(db: Db, key: string): string | undefined {
  return db.prepare<{ value: string }>('SELECT value FROM meta WHERE key = ?').get(key)?.value;
}

export function writeMeta(db: Db, key: string, value: string): void {
  db.prepare(
    'INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  ).run(key, value);
}
