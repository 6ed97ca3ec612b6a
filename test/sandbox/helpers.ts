// Small fetch helpers for the sandbox tests.
import type { Sandbox } from '../../src/sandbox/index.js';

export interface CallResult {
  status: number;
  headers: Headers;
  body: unknown;
}

export async function call(
  sb: Sandbox,
  path: string,
  init: { method?: string; body?: unknown; key?: string | null; rawBody?: string; contentType?: string } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = {};
  const key = init.key === undefined ? sb.apiKey : init.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (init.rawBody !== undefined) body = init.rawBody;
  else if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined) headers['Content-Type'] = init.contentType ?? 'application/json';
  const res = await fetch(sb.baseUrl + path, { method: init.method ?? 'GET', headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** The path+query of the Link rel="next" target, or undefined on the last page. */
export function nextPath(headers: Headers): string | undefined {
  const link = headers.get('link');
  if (!link) return undefined;
  const m = /^<([^>]+)>; rel="next"$/.exec(link);
  if (!m) throw new Error(`unexpected Link header: ${link}`);
  return m[1];
}

/** Follows Link headers from `path`; returns every item of every page. */
export async function collect(sb: Sandbox, path: string, maxPages = 10_000): Promise<unknown[]> {
  const origin = new URL(sb.baseUrl).origin;
  const items: unknown[] = [];
  let url: string | undefined = sb.baseUrl + path;
  for (let i = 0; url && i < maxPages; i++) {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${sb.apiKey}` } });
    if (res.status !== 200) throw new Error(`${url} -> ${res.status} ${await res.text()}`);
    items.push(...((await res.json()) as unknown[]));
    const next = nextPath(res.headers);
    url = next === undefined ? undefined : origin + next;
  }
  return items;
}
