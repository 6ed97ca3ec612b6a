// Profiles and the stored API key. The file holds one section per profile; it is written with mode
// 0600 inside a folder with mode 0700, because it holds keys. It is the file `conf` used to write
// (same place, same tab-indented JSON), now handled here because conf has no cross-process lock:
// eight `auth login` at once lost profiles. Every change is one locked read-modify-write: take
// `config.json.lock` (O_EXCL, bounded wait), re-read the file, change it, write a temp file and
// rename it over the old one.

import { mkdirSync, readFile } from 'node:fs';
import { chmod, open, rm, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { ExitCode, MtgError, UsageError } from '../shared/errors.js';
import { ConfigFileError } from './errors.js';

export const CONFIG_KEYS = ['api-key', 'base-url', 'app-url'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type ProfileSettings = Partial<Record<ConfigKey, string>>;
type ConfigFile = { profiles: Record<string, ProfileSettings>; [other: string]: unknown };

export function checkConfigKey(key: string): ConfigKey {
  if ((CONFIG_KEYS as readonly string[]).includes(key)) return key as ConfigKey;
  throw new UsageError(`Unknown config key "${key}". Valid keys: ${CONFIG_KEYS.join(', ')}`);
}

const SET_DIR_HINT =
  'Set MTG_CONFIG_DIR to an absolute folder, e.g. export MTG_CONFIG_DIR="/path/to/mtg-config"';

/**
 * The config folder, as conf (env-paths) chose it, but only from an absolute home: with `HOME=`
 * env-paths gave `.config/mtg` relative to the current folder, so keys landed in a checkout.
 */
export function configDir(env: NodeJS.ProcessEnv): { dir: string } | { problem: string } {
  if (env.MTG_CONFIG_DIR) return { dir: env.MTG_CONFIG_DIR };
  const abs = (p: string | undefined) => (p && isAbsolute(p) ? p : undefined);
  if (process.platform === 'win32') {
    const appData =
      abs(env.APPDATA) ?? (abs(env.USERPROFILE) && join(env.USERPROFILE!, 'AppData', 'Roaming'));
    if (appData) return { dir: join(appData, 'mtg', 'Config') };
    return { problem: 'APPDATA and USERPROFILE are not set to absolute folders' };
  }
  const home = abs(env.HOME);
  if (process.platform === 'darwin') {
    if (home) return { dir: join(home, 'Library', 'Preferences', 'mtg') };
  } else {
    const base = abs(env.XDG_CONFIG_HOME) ?? (home && join(home, '.config'));
    if (base) return { dir: join(base, 'mtg') };
  }
  return {
    problem:
      env.HOME === undefined
        ? 'HOME is not set'
        : env.HOME === ''
          ? 'HOME is empty'
          : `HOME is not an absolute folder (${JSON.stringify(env.HOME)})`,
  };
}

/** Kept from conf's format so that files written by earlier versions read back unchanged. */
const serialize = (data: ConfigFile) => JSON.stringify(data, undefined, '\t');

const LOCK_WAIT_MS = 10_000;
/** A write takes milliseconds; a lock this old was left by a process that died mid-write. */
const STALE_LOCK_MS = 30_000;

export class ConfigStore {
  private cache: ConfigFile | undefined;

  private constructor(
    readonly path: string | undefined,
    private readonly problem: string | undefined,
  ) {}

  /** Nothing is read here: only commands that look at a setting read (and validate) the file. */
  static async open(env: NodeJS.ProcessEnv): Promise<ConfigStore> {
    const where = configDir(env);
    return 'dir' in where
      ? new ConfigStore(join(where.dir, 'config.json'), undefined)
      : new ConfigStore(undefined, where.problem);
  }

  /** Where keys would be stored, or why there is no such place. */
  describe(): string {
    return this.path ?? `no config folder: ${this.problem}`;
  }

  async profile(name: string): Promise<ProfileSettings> {
    // Own sections only: "constructor" or "toString" is not a section because every object has one.
    const { profiles } = await this.read();
    return Object.hasOwn(profiles, name) ? profiles[name]! : {};
  }

  async profiles(): Promise<Record<string, ProfileSettings>> {
    return (await this.read()).profiles;
  }

  /** Sets (string) or removes (undefined) several keys of one profile in one locked write. */
  async update(profile: string, changes: Partial<Record<ConfigKey, string | undefined>>): Promise<void> {
    const path = this.checkWritable();
    const dir = path.slice(0, path.length - 'config.json'.length - 1);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700).catch(() => {
      // The folder is not ours to change (a shared MTG_CONFIG_DIR): the file itself is still 0600.
    });
    const release = await lock(`${path}.lock`);
    try {
      this.cache = undefined;
      const data = await this.read();
      const section: ProfileSettings = { ...(await this.profile(profile)) };
      for (const [key, value] of Object.entries(changes) as [ConfigKey, string | undefined][]) {
        if (value === undefined) delete section[key];
        else section[key] = value;
      }
      const profiles = { ...data.profiles };
      if (Object.keys(section).length === 0) delete profiles[profile];
      else profiles[profile] = section;
      const next = { ...data, profiles };
      await writeAtomic(path, serialize(next));
      this.cache = next;
    } finally {
      await release();
    }
  }

  /** The file's path, or a usage error when there is no safe place for keys (checked before any request). */
  checkWritable(): string {
    if (this.path) return this.path;
    throw new UsageError(`Refusing to store settings: there is no safe config folder (${this.problem})`, [
      SET_DIR_HINT,
    ]);
  }

  private async read(): Promise<ConfigFile> {
    if (this.cache) return this.cache;
    // With no usable home there is no file to read: settings then come from flags and environment.
    if (!this.path) return { profiles: {} };
    let text: string;
    try {
      // node:fs's callback form, not node:fs/promises's: that module (and the ~25 of node's it loads
      // on node 26) is needed by no read-only command (scripts/build-plugins.mjs, lazyFsPromises).
      const path = this.path;
      text = await new Promise<string>((resolve, reject) =>
        readFile(path, 'utf8', (err, data) => (err ? reject(err) : resolve(data))),
      );
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
      throw new MtgError(`Cannot read the config file ${this.path}: ${(err as Error).message}`, ExitCode.api);
    }
    this.cache = await parseConfig(this.path, text);
    return this.cache;
  }
}

/** Parses and checks the file's shape; every problem names the file, the place and what is expected. */
async function parseConfig(path: string, text: string): Promise<ConfigFile> {
  const fixHint = `Fix it in an editor, or move it away (mv "${path}" "${path}.bak") and log in again with \`mtg auth login\``;
  if (text.trim() === '') return { profiles: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigFileError(`The config file ${path} is not valid JSON (${(err as Error).message})`, [
      fixHint,
    ]);
  }
  const { z } = await import('zod');
  const Profile = z.looseObject({
    'api-key': z.string().optional(),
    'base-url': z.string().optional(),
    'app-url': z.string().optional(),
  });
  const File = z.looseObject({ profiles: z.record(z.string(), Profile).default({}) });
  const parsed = File.safeParse(raw);
  if (parsed.success) return parsed.data as ConfigFile;
  const issue = parsed.error.issues[0]!;
  const [, profile, key] = issue.path.map(String);
  const where =
    issue.path.length === 0
      ? 'the file must hold a JSON object'
      : issue.path.length === 1
        ? '"profiles" must be an object (one section per profile)'
        : issue.path.length === 2
          ? `profile "${profile}" must be an object of settings`
          : `profile "${profile}", key "${key}" must be a string`;
  // The wrong value itself is not shown: it may be a key.
  // One line: what is wrong, then the ways to fix it. Not `mtg config set`/`unset`: every change
  // re-reads the file first, so they refuse it too.
  throw new ConfigFileError(
    `The config file ${path} has a wrong type: ${where}; fix it in an editor, or move it away (mv "${path}" "${path}.bak") and set it up again`,
  );
}

/** Whole file or nothing (shared/atomic-file.ts): a 0600 temp file, fsync'd, renamed over the old one. */
async function writeAtomic(path: string, text: string): Promise<void> {
  try {
    await writeFileAtomic(path, text, { mode: 0o600 });
  } catch (err) {
    throw new MtgError(`Could not write the config file ${path}: ${(err as Error).message}`, ExitCode.api);
  }
}

/** Takes the lock file or fails after a bounded wait; a lock left by a dead writer is broken. */
async function lock(lockPath: string): Promise<() => Promise<void>> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new MtgError(
          `Cannot lock the config file (${lockPath}): ${(err as Error).message}`,
          ExitCode.api,
        );
    }
    const age = await stat(lockPath).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > STALE_LOCK_MS) {
      await rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new MtgError(
        `The config file is locked by another mtg process (${lockPath}); nothing was stored. ` +
          'Try again, or remove the lock file if no other mtg is running',
        ExitCode.api,
      );
    await new Promise((r) => setTimeout(r, 10 + Math.random() * 20 + Math.min(attempt, 10) * 5));
  }
}
