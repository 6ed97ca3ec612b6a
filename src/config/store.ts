// Profiles and the stored API key, on `conf`. The file holds one section per profile; it is written
// with mode 0600 inside a folder with mode 0700, because it holds keys.

import { chmodSync, mkdirSync } from 'node:fs';
import { UsageError } from '../api/errors.js';

export const CONFIG_KEYS = ['api-key', 'base-url', 'app-url'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type ProfileSettings = Partial<Record<ConfigKey, string>>;
type ConfigFile = { profiles: Record<string, ProfileSettings> };

export function checkConfigKey(key: string): ConfigKey {
  if ((CONFIG_KEYS as readonly string[]).includes(key)) return key as ConfigKey;
  throw new UsageError(`Unknown config key "${key}". Valid keys: ${CONFIG_KEYS.join(', ')}`);
}

export class ConfigStore {
  private constructor(private readonly conf: import('conf').default<ConfigFile>) {}

  /** conf (and its JSON-schema machinery) is loaded only by commands that need stored settings. */
  static async open(configDir: string | undefined): Promise<ConfigStore> {
    const before = signalListeners();
    const { default: Conf } = await import('conf');
    dropSignalListenersAddedSince(before);
    if (configDir) {
      mkdirSync(configDir, { recursive: true, mode: 0o700 });
    }
    const conf = new Conf<ConfigFile>({
      projectName: 'mtg',
      projectSuffix: '',
      cwd: configDir,
      configName: 'config',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      defaults: { profiles: {} },
    });
    const store = new ConfigStore(conf);
    store.tightenFolder();
    return store;
  }

  get path(): string {
    return this.conf.path;
  }

  profile(name: string): ProfileSettings {
    return this.conf.get('profiles')[name] ?? {};
  }

  profiles(): Record<string, ProfileSettings> {
    return this.conf.get('profiles');
  }

  set(profile: string, key: ConfigKey, value: string): void {
    const profiles = { ...this.conf.get('profiles') };
    profiles[profile] = { ...profiles[profile], [key]: value };
    this.conf.set('profiles', profiles);
    this.tightenFolder();
  }

  unset(profile: string, key: ConfigKey): void {
    const profiles = { ...this.conf.get('profiles') };
    const section = { ...profiles[profile] };
    delete section[key];
    if (Object.keys(section).length === 0) delete profiles[profile];
    else profiles[profile] = section;
    this.conf.set('profiles', profiles);
  }

  private tightenFolder(): void {
    // conf creates the folder with the default umask; keys deserve 0700.
    const dir = this.conf.path.slice(0, this.conf.path.lastIndexOf('/'));
    try {
      chmodSync(dir, 0o700);
    } catch {
      // The folder is not ours to change (a shared MTG_CONFIG_DIR): the file itself is still 0600.
    }
  }
}

// conf's atomic writer (atomically -> when-exit) hooks SIGINT/SIGTERM when it loads, and on the
// signal sends it again to the process. That echo reached the CLI's own handler as a "second
// Ctrl-C" and forced an immediate exit: no "Interrupted.", an -o temp file left behind. Its only
// purpose is removing temp files of a write in progress, and conf writes synchronously, so no
// signal handler can run mid-write: the hooks are dropped. (when-exit's 'exit' hook is kept.)
const HANDLED_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type Listener = (...args: unknown[]) => void;

function signalListeners(): Map<string, Listener[]> {
  return new Map(HANDLED_SIGNALS.map((s) => [s, process.listeners(s) as Listener[]]));
}

function dropSignalListenersAddedSince(before: Map<string, Listener[]>): void {
  for (const signal of HANDLED_SIGNALS) {
    const old = before.get(signal) ?? [];
    for (const listener of process.listeners(signal) as Listener[]) {
      if (!old.includes(listener)) process.off(signal, listener);
    }
  }
}
