// Strict request validation: every bad query, path or body value becomes a 400 VALIDATION_ERROR
// issue {message, path}. Unknown query parameters and body fields are rejected, not ignored, so a
// client that sends a misspelled or invented parameter finds out here rather than in production.
import type { z } from 'zod';
import { type Issue, validationError } from './errors.js';

const POSITIVE_INT = /^[1-9][0-9]*$/;

export type ParamSpec =
  | { kind: 'string' }
  | { kind: 'posInt' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'posIntArray' }
  | { kind: 'stringArray' };

type ParamValue<S extends ParamSpec> = S extends { kind: 'posInt' }
  ? number
  : S extends { kind: 'posIntArray' }
    ? number[]
    : S extends { kind: 'stringArray' }
      ? string[]
      : string;

export type ParsedQuery<T extends Record<string, ParamSpec>> = { [K in keyof T]?: ParamValue<T[K]> };

export function parsePositiveInt(raw: string): number | undefined {
  if (!POSITIVE_INT.test(raw)) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Parses the query by `specs`; arrays arrive as repeated parameters (tagIds=3&tagIds=7). */
export function parseQuery<T extends Record<string, ParamSpec>>(
  query: URLSearchParams,
  specs: T,
): ParsedQuery<T> {
  const issues: Issue[] = [];
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const name of query.keys()) {
    if (seen.has(name)) continue;
    seen.add(name);
    const spec = specs[name];
    if (!spec) {
      issues.push({
        path: name,
        message: `unknown query parameter (allowed: ${Object.keys(specs).join(', ')})`,
      });
      continue;
    }
    const values = query.getAll(name);
    const isArray = spec.kind === 'posIntArray' || spec.kind === 'stringArray';
    if (!isArray && values.length > 1) {
      issues.push({ path: name, message: 'must be given once' });
      continue;
    }
    const parsed: unknown[] = [];
    values.forEach((raw, i) => {
      const path = isArray ? `${name}.${i}` : name;
      if (raw === '') {
        issues.push({ path, message: 'must not be empty' });
        return;
      }
      if (spec.kind === 'posInt' || spec.kind === 'posIntArray') {
        const n = parsePositiveInt(raw);
        if (n === undefined) issues.push({ path, message: `must be a positive integer, got "${raw}"` });
        else parsed.push(n);
      } else if (spec.kind === 'enum') {
        if (!spec.values.includes(raw)) {
          issues.push({ path, message: `must be one of ${spec.values.join(', ')}; got "${raw}"` });
        } else parsed.push(raw);
      } else parsed.push(raw);
    });
    out[name] = isArray ? parsed : parsed[0];
  }
  if (issues.length > 0) throw validationError(issues);
  return out as ParsedQuery<T>;
}

export function positiveIntParam(raw: string, name: string): number {
  const n = parsePositiveInt(raw);
  if (n === undefined)
    throw validationError([{ path: name, message: `must be a positive integer, got "${raw}"` }]);
  return n;
}

/** zod issues -> envelope issues; an unknown key becomes one issue whose path is that key. */
function toIssues(error: z.ZodError): Issue[] {
  const issues: Issue[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) issues.push({ path: [...base, key].join('.'), message: 'unknown field' });
    } else {
      issues.push({ path: base.join('.'), message: issue.message });
    }
  }
  return issues;
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined) throw validationError([{ path: '', message: 'a JSON request body is required' }]);
  const result = schema.safeParse(body);
  if (!result.success) throw validationError(toIssues(result.error));
  return result.data;
}
