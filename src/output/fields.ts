// Dotted field paths: derived from the zod schemas (so --fields always matches what the API
// returns), validated for --fields, and resolved against items.

import type { z } from 'zod';
import { ExactInteger } from '../shared/exact.js';

/** A usage error (the CLI maps it to exit 2): bad --fields and similar. */
export class OutputUsageError extends Error {
  override name = 'OutputUsageError';
}

// zod 4 keeps its definition on `_zod.def`; only the parts walked here are typed.
interface ZodDefLike {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  getter?: () => unknown;
  element?: unknown;
}

function defOf(schema: unknown): ZodDefLike | undefined {
  return (schema as { _zod?: { def?: ZodDefLike } } | undefined)?._zod?.def;
}

// Wrappers that do not change the shape of the value.
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch']);

function unwrap(schema: unknown, depth = 0): ZodDefLike | undefined {
  const def = defOf(schema);
  if (!def || depth > 20) return def;
  if (WRAPPERS.has(def.type)) return unwrap(def.innerType, depth + 1);
  // Items are printed as the API sent them, i.e. the input side of a pipe/transform.
  if (def.type === 'pipe') return unwrap(def.in, depth + 1);
  if (def.type === 'lazy' && def.getter) return unwrap(def.getter(), depth + 1);
  return def;
}

/**
 * The dotted paths of an object schema, in declaration order. `fields`: its leaves; objects (through
 * optional, nullable, extend, ...) are descended into; arrays, records, unions and scalars are one
 * leaf each. `elementFields`: paths through an array of objects to a field of each element
 * (`attendees.name`), valid for --fields, which then gives that field of every element (csv/tsv join
 * them with `;`), but no default column (the array itself is one).
 */
export function schemaPaths(schema: z.ZodType): { fields: string[]; elementFields: string[] } {
  const fields: string[] = [];
  const elementFields: string[] = [];
  const walk = (s: unknown, prefix: string, depth: number, inArray: boolean): void => {
    const def = unwrap(s);
    if (def?.type === 'object' && def.shape && depth < 8) {
      for (const [key, child] of Object.entries(def.shape)) {
        walk(child, prefix ? `${prefix}.${key}` : key, depth + 1, inArray);
      }
      return;
    }
    if (!prefix) return;
    const array = def?.type === 'array';
    if (!(array && inArray)) (inArray ? elementFields : fields).push(prefix);
    if (array && depth < 8 && unwrap(def.element)?.type === 'object')
      walk(def.element, prefix, depth + 1, true);
  };
  walk(schema, '', 0, false);
  return { fields, elementFields };
}

/** The leaf paths of an object schema (schemaPaths' `fields`). */
export function fieldsOfSchema(schema: z.ZodType): string[] {
  return schemaPaths(schema).fields;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  // An ExactInteger (an integer beyond 2^53) is a number value, not an object to walk into.
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof ExactInteger);
}

/** Leaf paths of a value (for the raw view, which has no schema); same leaf rules as fieldsOfSchema. */
export function fieldsOfValue(value: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, prefix: string, depth: number): void => {
    if (isPlainObject(v) && depth < 8 && Object.keys(v).length > 0) {
      for (const [key, child] of Object.entries(v)) walk(child, prefix ? `${prefix}.${key}` : key, depth + 1);
    } else if (prefix) {
      out.push(prefix);
    }
  };
  walk(value, '', 0);
  return out;
}

/** The value at a dotted path, or undefined when any step is missing or not an object. */
export function getPath(item: unknown, path: string): unknown {
  if (!path.includes('.')) return isPlainObject(item) ? item[path] : undefined;
  // A key that itself holds a dot (an `mtg sql` column such as "json ->> '$.name'") is a field too.
  if (isPlainObject(item) && Object.hasOwn(item, path)) return item[path];
  let cur: unknown = item;
  const keys = path.split('.');
  for (const [at, key] of keys.entries()) {
    // Through an array (`attendees.name`): the rest of the path in each element, missing as null.
    if (at > 0 && Array.isArray(cur)) {
      const rest = keys.slice(at).join('.');
      return cur.map((element) => getPath(element, rest) ?? null);
    }
    if (!isPlainObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** `{ "a": .., "assignee.name": .. }`: flat keys in the requested order; missing -> null. */
export function project(item: unknown, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = getPath(item, f);
    out[f] = v === undefined ? null : v;
  }
  return out;
}

export interface FieldsView {
  name: string;
  fields: string[];
  /** Paths through an array to a field of each element (elementFieldsOfSchema): valid, no column. */
  elementFields?: string[];
  /** Any path is accepted (the raw `api` view, which has no schema). */
  open?: boolean;
}

/**
 * "a, b,assignee.name" -> ['a','b','assignee.name'] (trimmed, duplicates dropped, order kept).
 * Besides leaf paths, an object path that prefixes leaves (e.g. `assignee`) is accepted and yields
 * the whole object. Anything else throws OutputUsageError listing the valid fields.
 */
export function parseFields(spec: string, view: FieldsView): string[] {
  const requested = [...new Set(spec.split(',').map((s) => s.trim()))].filter((s) => s !== '');
  if (requested.length === 0) throw new OutputUsageError('--fields needs at least one field name');
  if (view.open) return requested;
  const all = [...view.fields, ...(view.elementFields ?? [])];
  const valid = new Set(all);
  const prefixes = new Set<string>();
  for (const f of all) {
    const parts = f.split('.');
    for (let i = 1; i < parts.length; i++) prefixes.add(parts.slice(0, i).join('.'));
  }
  const unknown = requested.filter((f) => !valid.has(f) && !prefixes.has(f));
  if (unknown.length > 0) {
    const what = unknown.length === 1 ? 'field' : 'fields';
    throw new OutputUsageError(
      `unknown ${what} for ${view.name}: ${unknown.join(', ')}\nvalid fields: ${all.join(', ')}`,
    );
  }
  return requested;
}
