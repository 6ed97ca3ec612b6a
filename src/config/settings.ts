// Where each setting comes from, first wins: flag, environment, stored profile (cli-contract.md).

import { UsageError } from '../shared/errors.js';
import type { ConfigStore } from './store.js';

export { ConfigFileError } from './errors.js';

export type Source = 'flag' | 'env' | 'config' | 'none';

export interface SettingsInput {
  flags: { apiKey?: string; baseUrl?: string; profile?: string };
  env: NodeJS.ProcessEnv;
}

export interface Settings {
  profile: string;
  /** From flag, env or the config file; Context.apiKey() puts the credential store before the file. */
  apiKey?: string;
  apiKeySource: Source;
  baseUrl?: string;
  baseUrlSource: Source;
  /** As given, not checked: only commands that make meeting links read it, through appUrlOf(). */
  appUrl?: string;
  appUrlSource: Source;
  configDir?: string;
}

export function profileName(input: SettingsInput): string {
  const name = input.flags.profile || input.env.MTG_PROFILE || 'default';
  // The config file's sections are keys of a JSON object: "__proto__" would be read and written as
  // the object's prototype, so its settings were silently never stored (exit 0). Refused.
  if (name === '__proto__') {
    const from = input.flags.profile ? '--profile' : 'MTG_PROFILE';
    throw new UsageError(
      `${from} "${name}" cannot name a profile (it is special in JSON objects): choose another name`,
    );
  }
  return name;
}

/**
 * True when flags and environment do not already give everything, so the config file must be read.
 * `needAppUrl: false` for callers that only connect (the API client): a command given key and base
 * URL then never reads the file, so a broken config file cannot stop it (bench figure b: start-up).
 */
export function needsStore(input: SettingsInput, needAppUrl = true): boolean {
  const env = input.env;
  return !(
    (input.flags.apiKey || env.MTG_API_KEY) &&
    (input.flags.baseUrl || env.MTG_BASE_URL) &&
    (!needAppUrl || env.MTG_APP_URL)
  );
}

export async function resolveSettings(
  input: SettingsInput,
  store: ConfigStore | undefined,
): Promise<Settings> {
  const profile = profileName(input);
  const stored = (await store?.profile(profile)) ?? {};
  const env = input.env;
  const pick = (flag: string | undefined, envValue: string | undefined, config: string | undefined) =>
    flag
      ? { value: flag, source: 'flag' as const }
      : envValue
        ? { value: envValue, source: 'env' as const }
        : config
          ? { value: config, source: 'config' as const }
          : { value: undefined, source: 'none' as const };
  const key = pick(input.flags.apiKey, env.MTG_API_KEY, stored['api-key']);
  const base = pick(input.flags.baseUrl, env.MTG_BASE_URL, stored['base-url']);
  return {
    profile,
    apiKey: key.value,
    apiKeySource: key.source,
    baseUrl: base.value,
    baseUrlSource: base.source,
    appUrl: env.MTG_APP_URL || stored['app-url'],
    appUrlSource: env.MTG_APP_URL ? 'env' : stored['app-url'] ? 'config' : 'none',
    configDir: env.MTG_CONFIG_DIR || undefined,
  };
}

/**
 * The web app's URL for meeting links, without trailing slashes, or undefined when none is set.
 * MTG_APP_URL is checked here, where a link is made, not for every command: a bad value must not
 * stop `sync` or `find`, which never use it (`config set app-url` checks the stored one).
 */
export function appUrlOf(settings: Settings): string | undefined {
  const url =
    settings.appUrlSource === 'env' && settings.appUrl
      ? checkAppUrl(settings.appUrl, 'MTG_APP_URL')
      : settings.appUrl;
  return url?.replace(/\/+$/, '') || undefined;
}

/**
 * The web app's URL (for meeting links): http or https, no credentials. `from` names where it came
 * from in the error: `config set app-url` or the MTG_APP_URL variable (checked when it is read).
 */
export function checkAppUrl(raw: string, from: 'app-url' | 'MTG_APP_URL'): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // Not a URL at all: said below.
  }
  const problem = !url
    ? 'expected something like https://app.example.com'
    : url.protocol !== 'https:' && url.protocol !== 'http:'
      ? 'only http and https are supported'
      : url.username || url.password
        ? 'it must not contain credentials'
        : undefined;
  if (!problem) return raw;
  throw new UsageError(
    from === 'app-url'
      ? `Invalid app URL "${raw}": ${problem}`
      : `MTG_APP_URL is not a valid app URL ("${raw}"): ${problem}`,
  );
}

/** "mtg_sk_…1a2b": enough to tell keys apart, never enough to use one. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '•'.repeat(key.length);
  const prefix = /^[A-Za-z]+_(?:[A-Za-z]+_)?/.exec(key)?.[0] ?? '';
  return `${prefix.slice(0, 12)}…${key.slice(-4)}`;
}
