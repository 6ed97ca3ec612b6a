// What `mtg api` sends, from its arguments: fields, the path and its query, the method (after `gh
// api`). Pure: no IO.

import type { Query } from '../../api/url.js';
import { oneOf } from '../../cli/input.js';
import { UsageError } from '../../shared/errors.js';
import { API_METHODS, type ApiMethod } from './spec.js';

export interface Field {
  key: string;
  /** The text after "=", as typed. */
  raw: string;
  /** The JSON value for a body: typed (-F) or always a string (-f). */
  value: unknown;
  /** "key[]=v": always an array, even with one value. */
  array: boolean;
}

/** Like gh's -F: true, false, null and plain numbers become JSON values; anything else stays a string. */
export function typedValue(raw: string): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) {
    const n = Number(raw);
    // Integers past 2^53 would lose digits as JSON numbers: keep them as text.
    if (Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n))) return n;
  }
  return raw;
}

export function parseField(text: string, typed: boolean): Field {
  const eq = text.indexOf('=');
  const rawKey = eq < 0 ? '' : text.slice(0, eq).trim();
  const array = rawKey.endsWith('[]');
  const key = array ? rawKey.slice(0, -2) : rawKey;
  if (!key) throw new UsageError(`Invalid field "${text}": expected key=value`);
  const raw = text.slice(eq + 1);
  return { key, raw, value: typed ? typedValue(raw) : raw, array };
}

/** Fields as query parameters: repeated keys (and key[]) become repeated parameters. */
export function fieldsToQuery(fields: readonly Field[], base: Query = {}): Query {
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined && v !== null) query[k] = Array.isArray(v) ? v.map(String) : String(v);
  }
  for (const f of fields) {
    const prev = query[f.key];
    if (prev === undefined) query[f.key] = f.array ? [f.raw] : f.raw;
    else query[f.key] = [...(Array.isArray(prev) ? prev : [prev]), f.raw];
  }
  return query;
}

/** Fields as a JSON object body: repeated keys (and key[]) become arrays. */
export function fieldsToBody(fields: readonly Field[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const prev = body[f.key];
    if (!(f.key in body)) body[f.key] = f.array ? [f.value] : f.value;
    else body[f.key] = [...(Array.isArray(prev) ? prev : [prev]), f.value];
  }
  return body;
}

/** "/people?domains=a.com" -> the path and its query (repeated keys kept as arrays). */
export function splitPath(value: string): { path: string; query: Query } {
  const text = value.trim();
  if (!text.startsWith('/')) {
    throw new UsageError(`PATH must start with "/" (a path under the base URL), got "${value}"`);
  }
  if (/\s|#/.test(text)) throw new UsageError(`PATH must not contain spaces or "#", got "${value}"`);
  const q = text.indexOf('?');
  const path = q < 0 ? text : text.slice(0, q);
  const query: Record<string, string | string[]> = {};
  if (q >= 0) {
    for (const [k, v] of new URLSearchParams(text.slice(q + 1))) {
      const prev = query[k];
      query[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
    }
  }
  return { path, query };
}

export interface ApiRequestPlan {
  method: ApiMethod;
  path: string;
  query: Query;
  body?: unknown;
}

/**
 * Where fields go (as in gh): fields or --input switch the default method to POST (not with
 * --paginate, which pages GET requests); with GET, or next to an --input body, fields are query
 * parameters; otherwise they make the JSON body.
 */
export function planRequest(input: {
  path: string;
  method?: string;
  fields: Field[];
  inputBody?: { value: unknown };
  paginate: boolean;
}): ApiRequestPlan {
  const { path, query } = splitPath(input.path);
  const hasData = input.fields.length > 0 || input.inputBody !== undefined;
  const method =
    input.method === undefined
      ? hasData && !input.paginate
        ? 'POST'
        : 'GET'
      : oneOf(input.method, API_METHODS, '--method');
  if (input.paginate && method !== 'GET') {
    throw new UsageError(`--paginate follows pages of GET requests, not ${method}`);
  }
  if (method === 'GET' && input.inputBody !== undefined) {
    throw new UsageError(
      '--input sends a body, which GET requests do not have: add --method POST, PUT or PATCH',
    );
  }
  if (method === 'GET' || input.inputBody !== undefined) {
    return { method, path, query: fieldsToQuery(input.fields, query), body: input.inputBody?.value };
  }
  return { method, path, query, body: input.fields.length ? fieldsToBody(input.fields) : undefined };
}
