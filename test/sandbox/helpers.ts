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

// The one pager of the tests lives in test/helpers/recorded.ts; these names stay for the sandbox tests.
export { fetchAll as collect, nextPath } from '../helpers/recorded.js';
