// json and ndjson. Values are written exactly as the API sent them (JSON.stringify keeps key
// order and string bytes; no sanitizing; integers beyond 2^53 keep their digits, shared/exact.ts). With --fields each item becomes an object whose keys
// are the requested paths, flat ("assignee.name"), in order; a missing value is null.
import { stringifyExact } from '../shared/exact.js';
import { project } from './fields.js';
import type { Encoder } from './stream.js';
import type { WriterOptions } from './types.js';

export function toJson(item: unknown, fields: readonly string[] | undefined, indent?: number): string {
  const value = fields && fields.length > 0 ? project(item, fields) : item;
  return stringifyExact(value, indent) ?? 'null';
}

/**
 * One array, written as items arrive: "[\n" item ",\n" item "\n]\n"; "[]\n" for no items.
 * One item per line keeps large exports greppable and the writer constant-memory.
 */
export function jsonEncoder(opts: WriterOptions): Encoder {
  return {
    item: (item, index) => (index === 0 ? '[\n' : ',\n') + toJson(item, opts.fields),
    finish: (total) => (total === 0 ? '[]\n' : '\n]\n'),
  };
}

export function ndjsonEncoder(opts: WriterOptions): Encoder {
  return {
    item: (item) => toJson(item, opts.fields) + '\n',
    finish: () => '',
  };
}
