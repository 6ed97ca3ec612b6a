// Turning one field value into the text of one cell (csv, tsv and table share these rules).
import { ExactInteger, stringifyExact } from '../shared/exact.js';
import { isPlainObject } from './fields.js';

/**
 * null/undefined -> "", booleans "true"/"false", numbers as JSON writes them, strings as is,
 * arrays joined with `sep` (objects in them by their `label` key when given, else as JSON),
 * other objects (records, whole sub-objects) as JSON.
 */
export function cellText(value: unknown, sep: string, label?: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    typeof value === 'bigint' ||
    value instanceof ExactInteger // an integer beyond 2^53: its exact digits
  )
    return String(value);
  if (Array.isArray(value)) return value.map((v) => elementText(v, label)).join(sep);
  return stringifyExact(value) ?? '';
}

function elementText(v: unknown, label: string | undefined): string {
  if (isPlainObject(v)) {
    if (label !== undefined && v[label] !== undefined) return cellText(v[label], ',');
    return stringifyExact(v) ?? '';
  }
  if (Array.isArray(v)) return stringifyExact(v) ?? '';
  return cellText(v, ';');
}

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Spreadsheet formula injection (OWASP "CSV injection"): a text cell starting with = + - @ tab
 * or CR gets a leading "'". Number values are left alone so -5 stays a number.
 */
export function guardFormula(text: string, value: unknown): string {
  if (typeof value === 'number' || value instanceof ExactInteger || !FORMULA_START.test(text)) return text;
  return "'" + text;
}
