// Base URL checks and request URL building. Kept free of undici so commands can validate input
// (and fail with exit 2) before anything heavy is loaded.

import { UsageError } from '../shared/errors.js';

export type QueryValue = string | number | boolean | undefined | null | ReadonlyArray<string | number>;
export type Query = Record<string, QueryValue>;

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/**
 * Parse and check a base URL: http(s) only; plain http only to loopback unless --insecure. `purpose`
 * words the refusal: `config set` stores the URL and sends nothing.
 */
export function checkBaseUrl(raw: string, insecure: boolean, purpose: 'send' | 'store' = 'send'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`Invalid base URL "${raw}": expected something like https://api.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`Invalid base URL "${raw}": only http and https are supported`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !insecure) {
    throw new UsageError(
      purpose === 'store'
        ? `Refusing to store a plain-http base URL for ${url.host}, a host other than loopback: use https, or pass --insecure to store it anyway (commands using it then need --insecure too)`
        : `Refusing to send the API key over plain http to ${url.host}: use https, or pass --insecure if you really mean it`,
    );
  }
  if (url.username || url.password) throw new UsageError('The base URL must not contain credentials');
  url.search = '';
  url.hash = '';
  return url;
}

/** Query arrays are sent as repeated parameters (tagIds=3&tagIds=7); empty values are left out. */
export function buildQuery(query: Query | undefined): URLSearchParams {
  const params = new URLSearchParams();
  if (!query) return params;
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  return params;
}

/** Join the base URL (which may carry a path prefix such as /v1) with an endpoint path and query. */
export function endpointUrl(base: URL, path: string, query?: Query): URL {
  const url = new URL(base.href);
  url.pathname = base.pathname.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
  const search = buildQuery(query).toString();
  url.search = search ? `?${search}` : '';
  return url;
}
