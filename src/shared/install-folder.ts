// Where mtg is installed: the folder of its package.json, found from this module's own place (the
// bundle in dist/, or src/ in a checkout), for commands that name it (`npm rebuild` in it, the
// absolute path of bin/mtg.js for an assistant's configuration).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's name on the npm registry (the command is `mtg`). */
export const PACKAGE_NAME = 'meeting-notes-cli';

/** The mtg install folder (where `npm rebuild` runs): the nearest folder up with mtg's package.json. */
export function installFolder(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    try {
      if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === PACKAGE_NAME)
        return dir;
    } catch {
      // An unreadable manifest on the way up: keep looking.
    }
    if (dirname(dir) === dir) return from;
  }
}
