// What a command's run function gets: parsed globals, the three streams, the environment, an abort
// signal, and lazy accessors for settings, the API client and the output module, so that nothing
// heavy is loaded before a command needs it.

import type { ApiClient } from '../api/client.js';
import { MissingKeyError, UsageError } from '../api/errors.js';
import { checkBaseUrl } from '../api/url.js';
import type { KeySource } from '../config/keychain.js';
import { ConfigFileError, needsStore, resolveSettings, type Settings } from '../config/settings.js';
import type { ConfigStore } from '../config/store.js';
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
    return this.globals.offline || /^(1|true|yes)$/i.test(this.env.MTG_OFFLINE ?? '');
  }

  /** The API client for this command, built on first use. */
  async client(overrides?: { apiKey?: string; baseUrl?: URL }): Promise<ApiClient> {
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
    });
    if (!overrides) this.clientInstance = client;
    this.clients.push(client);
    return client;
  }

  /** How many writes the server has applied for this command so far. */
  get appliedWrites(): number {
    return this.clients.reduce((n, c) => n + c.appliedWrites, 0);
  }

  /** Close what the command opened (keep-alive sockets) so the process exits promptly. */
  async dispose(): Promise<void> {
    this.progress.stop();
    await this.clientInstance?.close();
  }
}
