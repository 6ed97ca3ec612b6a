// Where the local mirror lives (cli-contract.md, "The local mirror"): MTG_DATA_DIR, else
// $XDG_DATA_HOME/mtg, else ~/.local/share/mtg. HOME is read from the environment, not from the
// password database: a job that clears HOME should be told to say where, not write somewhere else.

import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../shared/errors.js';

/** The data folder; one that MTG_DATA_DIR names is checked here, where the name is known (exit 2 if a file). */
export function dataDir(env: Record<string, string | undefined>): string {
  if (env.MTG_DATA_DIR) {
    const dir = resolve(env.MTG_DATA_DIR);
    checkFolder(dir, `MTG_DATA_DIR ${dir}`);
    return dir;
  }
  // The XDG spec: a relative XDG_DATA_HOME is invalid and is ignored.
  if (env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME)) return join(env.XDG_DATA_HOME, 'mtg');
  const home = process.platform === 'win32' ? env.USERPROFILE || env.HOME : env.HOME;
  if (!home || !isAbsolute(home) || home === '/nonexistent') {
    throw new UsageError(
      'No data folder for the local mirror: HOME is not set (or not an absolute path). Set MTG_DATA_DIR to a folder mtg may write.',
    );
  }
  return join(home, '.local', 'share', 'mtg');
}

/** `what` ("MTG_DATA_DIR /x") is a folder or missing (created when needed); a file is exit 2. */
export function checkFolder(dir: string, what: string): void {
  let isFile = false;
  try {
    isFile = !statSync(dir).isDirectory();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOTDIR') return; // Missing: created when needed.
    throw new UsageError(`${what} is inside a file, not a folder: set MTG_DATA_DIR to a folder`);
  }
  if (isFile) throw new UsageError(`${what} is a file, not a folder: set MTG_DATA_DIR to a folder`);
}

/** A profile name as a file name: anything but letters, digits, `_`, `-` and inner dots is %-encoded. */
export function profileFileName(profile: string): string {
  return profile.replace(/[^A-Za-z0-9_.-]|^\./g, (c) =>
    [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}
