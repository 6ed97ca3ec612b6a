// The one factory of a command (as gh's Factory): what its run function gets, and the only place
// that builds what a command works with. Parsed globals, the three streams, the environment, an
// abort signal, the command tree; and lazy accessors for settings, the API client (client()), the
// profile's mirror (mirror()), and the source of the read commands (source(): the API, or the
// mirror under --offline), so that nothing heavy is loaded before a command needs it and nothing is
// opened twice. dispose() closes what was opened. No command builds a client or opens the database
// itself (docs/architecture.md).

import type { ApiClient } from '../api/client.js';
import { MissingKeyError } from '../api/errors.js';
import type { ReadSource } from '../api/read-source.js';
import { checkBaseUrl } from '../api/url.js';
import { dataDir } from '../config/data-dir.js';
import type { KeySource } from '../config/keychain.js';
import {
  ConfigFileError,
  needsStore,
  profileName,
  resolveSettings,
  type Settings,
} from '../config/settings.js';
import type { ConfigStore } from '../config/store.js';
import type { Mirror, OpenMirrorOptions } from '../mirror/open.js';
import { type Clock, realClock } from '../shared/clock.js';
import { UsageError } from '../shared/errors.js';
import { offlineFromEnv } from '../shared/offline.js';
import type { DeclaredNode } from './declare.js';
import type { Globals } from './globals.js';
import type { IOStreams } from './io.js';
import { Progress } from './progress.js';

export const VERSION: string = typeof __MTG_VERSION__ === 'string' ? __MTG_VERSION__ : '0.0.0-dev';
declare const __MTG_VERSION__: string | undefined;

export class Context {
  readonly progress: Progress;
  private storePromise: Promise<ConfigStore> | undefined;
  private clientInstance: ApiClient | undefined;
  /** Every client built (overrides included), to count the writes they applied. */
  private readonly clients: ApiClient[] = [];
  /** The command's words ("meetings list"), for messages. */
  commandPath = 'this command';

  constructor(
    readonly globals: Globals,
    /** The run's streams, TTYs, width, clock and colors (decided before the Context is built). */
    readonly io: IOStreams,
    readonly env: NodeJS.ProcessEnv,
    readonly signal: AbortSignal,
    /** The registry (src/commands/index.ts), for the commands that describe the others (completion). */
    readonly commandTree: readonly DeclaredNode[] = [],
    /** What waits and measures time (the client, the limiter, sync's estimate, watch, mcp --sync-every). */
    readonly clock: Clock = realClock,
  ) {
    this.progress = new Progress({
      stream: io.err,
      tty: io.errIsTTY,
      color: io.color.err,
      quiet: globals.quiet,
      verbose: globals.verbose,
    });
  }

  store(): Promise<ConfigStore> {
    this.storePromise ??= import('../config/store.js').then(({ ConfigStore }) => ConfigStore.open(this.env));
    return this.storePromise;
  }

  /** `needAppUrl: false` when only the key and base URL matter (the config file may then be skipped). */
  async settings(needAppUrl = true): Promise<Settings> {
    const input = {
      flags: { apiKey: this.globals.apiKey, baseUrl: this.globals.baseUrl, profile: this.globals.profile },
      env: this.env,
    };
    if (!needsStore(input, needAppUrl)) return resolveSettings(input, undefined);
    const store = await this.store();
    if (needsStore(input, false)) return resolveSettings(input, store);
    // Key and base URL are given: the file is asked only for the optional app-url, so a broken
    // file is a warning here, not a stop (commands that need the file still fail on it).
    try {
      return await resolveSettings(input, store);
    } catch (err) {
      if (!(err instanceof ConfigFileError)) throw err;
      this.progress.line(`mtg: warning: ${err.message}; its settings are ignored`);
      return resolveSettings(input, undefined);
    }
  }

  private keyPromise: Promise<{ key?: string; source: KeySource; storeName?: string }> | undefined;

  /**
   * The API key and where it came from: --api-key, MTG_API_KEY, the OS credential store, the config
   * file (first wins). The store is asked only here, once, and never when flag or env gives the key.
   */
  apiKey(settings: Settings): Promise<{ key?: string; source: KeySource; storeName?: string }> {
    if (settings.apiKeySource === 'flag' || settings.apiKeySource === 'env') {
      return Promise.resolve({ key: settings.apiKey, source: settings.apiKeySource });
    }
    this.keyPromise ??= import('../config/keychain.js').then(({ storedKey }) =>
      storedKey(this.env, settings.profile, settings.apiKey, this.signal, (line) => this.progress.line(line)),
    );
    return this.keyPromise;
  }

  /** The base URL, checked; a clear error when none is set anywhere. */
  baseUrl(settings: Settings): URL {
    if (!settings.baseUrl) {
      throw new UsageError(
        `No base URL for profile "${settings.profile}". Set one with \`mtg config set base-url URL\`, MTG_BASE_URL or --base-url` +
          ' (`mtg sandbox` gives one to try).',
      );
    }
    return checkBaseUrl(settings.baseUrl, this.globals.insecure);
  }

  /** --offline or MTG_OFFLINE=1: read commands answer from the mirror, nothing may be sent. */
  get offline(): boolean {
    return this.globals.offline || offlineFromEnv(this.env);
  }

  /** The API client for this command, built on first use. */
  async client(overrides?: { apiKey?: string; baseUrl?: URL; limiterOf?: ApiClient }): Promise<ApiClient> {
    // Every request goes through this client, so refusing it here keeps --offline's promise for
    // every command, including the ones that write.
    if (this.offline) {
      throw new UsageError(
        `\`mtg ${this.commandPath}\` needs the API, and --offline (or MTG_OFFLINE) sends no request: run it without --offline`,
      );
    }
    if (this.clientInstance && !overrides) return this.clientInstance;
    const settings = await this.settings(false);
    const baseUrl = overrides?.baseUrl ?? this.baseUrl(settings);
    // The client's code loads while the credential store (a child process) is asked.
    const [apiKey, { ApiClient }] = await Promise.all([
      overrides?.apiKey ?? this.apiKey(settings).then((found) => found.key),
      import('../api/client.js'),
    ]);
    if (!apiKey) throw new MissingKeyError(settings.profile);
    const client = new ApiClient({
      baseUrl,
      apiKey,
      userAgent: `mtg/${VERSION} (node ${process.version}; ${process.platform})`,
      timeoutMs: this.globals.timeoutMs,
      maxRetries: this.globals.maxRetries,
      maxWaitMs: this.globals.maxWaitMs,
      signal: this.signal,
      env: this.env,
      log: this.globals.verbose ? (line) => this.progress.debug(line) : undefined,
      onWait: (info) => this.progress.wait(info),
      warn: (line) => this.progress.line(line),
      limiterOf: overrides?.limiterOf,
      clock: this.clock,
      dataDir: this.sharingDir(),
    });
    if (!overrides) this.clientInstance = client;
    this.clients.push(client);
    return client;
  }

  /** Where the limiter shares its reports with other mtg processes: the data folder, if it can be named (else no sharing). */
  private sharingDir(): string | undefined {
    try {
      return dataDir(this.env);
    } catch {
      return undefined;
    }
  }

  /** How many writes the server has applied for this command so far. */
  get appliedWrites(): number {
    return this.clients.reduce((n, c) => n + c.appliedWrites, 0);
  }

  /** Mirrors opened for this command, by how (mirrorKey): each is opened once and closed by dispose(). */
  private readonly mirrors = new Map<string, Mirror>();

  /**
   * Which mirror this command works on, and the base URL it must hold. Reading: the profile (flag or
   * env; no config file is read for it), and the base URL configured (flag, env or profile; none:
   * the mirror's own), which the mirror must hold, so that no reader passes one server's data off as
   * another's; `anyBaseUrl` (mirror status, reset) takes the mirror whatever it holds. Writing
   * (sync, watch): the profile's base URL, checked, which a new mirror takes.
   */
  async mirrorTarget(options: MirrorOptions): Promise<Omit<OpenMirrorOptions, 'create'>> {
    if (!options.readonly) {
      const settings = await this.settings(false);
      const baseUrl = this.baseUrl(settings);
      return { profile: settings.profile, dataDir: dataDir(this.env), baseUrl: baseUrl.href };
    }
    const flags = { profile: this.globals.profile, baseUrl: this.globals.baseUrl };
    const profile = profileName({ flags, env: this.env });
    if (options.anyBaseUrl) return { profile, dataDir: dataDir(this.env), readonly: true };
    // Flag and env need no config file; only without them is the profile's stored base URL read.
    const baseUrl =
      flags.baseUrl || this.env.MTG_BASE_URL || (await this.settings(false)).baseUrl || undefined;
    return { profile, dataDir: dataDir(this.env), baseUrl, readonly: true };
  }

  /**
   * The profile's mirror, opened once for this command. Read-only opens never create, migrate or
   * write (and never wait for a running sync: WAL). A writable one is opened only once the API key
   * is known (ctx.client()): without one, no file is created.
   */
  async mirror(options: MirrorOptions): Promise<Mirror> {
    const target = await this.mirrorTarget(options);
    if (!options.readonly) await this.client();
    const { openMirror } = await import('../mirror/open.js');
    return this.openOnce(mirrorKey(options), () => openMirror(target));
  }

  /**
   * The profile's mirror, read-only, with its search index complete: built once after an upgrade,
   * from what the mirror holds (no request), with progress on stderr.
   */
  async searchableMirror(): Promise<Mirror> {
    const mirror = await this.mirror({ readonly: true });
    const { ensureSearchIndex } = await import('../mirror/search-index.js');
    ensureSearchIndex(mirror, (line) => this.progress.note(line));
    return mirror;
  }

  private openOnce(key: string, open: () => Mirror): Mirror {
    let mirror = this.mirrors.get(key);
    if (!mirror) {
      mirror = open();
      this.mirrors.set(key, mirror);
    }
    return mirror;
  }

  private sourcePromise: Promise<ReadSource> | undefined;

  /**
   * Where the read commands get their data: the API, or the mirror (read-only, opened on the first
   * read) under --offline / MTG_OFFLINE=1. Loads only the chosen one.
   */
  source(): Promise<ReadSource> {
    this.sourcePromise ??= this.offline
      ? Promise.all([
          this.mirrorTarget({ readonly: true }),
          import('../mirror/open.js'),
          import('../mirror/reads.js'),
        ]).then(
          ([target, { openMirror }, { MirrorReads }]) =>
            new MirrorReads(() => this.openOnce(mirrorKey({ readonly: true }), () => openMirror(target))),
        )
      : import('../api/source.js').then(({ apiSource }) => apiSource(() => this.client()));
    return this.sourcePromise;
  }

  /** Close what the command opened (keep-alive sockets, the mirror) so the process exits promptly. */
  async dispose(): Promise<void> {
    this.progress.stop();
    for (const mirror of this.mirrors.values()) mirror.close();
    this.mirrors.clear();
    // Every client built, the ones with overrides too (e.g. the sync's own in `mtg mcp`).
    await Promise.all(this.clients.map((c) => c.close()));
  }
}

export interface MirrorOptions {
  /** Read only (every reader), or read-write (sync, watch). */
  readonly: boolean;
  /** Read the mirror whatever base URL it holds (mirror status, reset); else it must hold the configured one. */
  anyBaseUrl?: boolean;
}

function mirrorKey(options: MirrorOptions): string {
  return options.readonly ? (options.anyBaseUrl ? 'read-any' : 'read') : 'write';
}
