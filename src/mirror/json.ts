// How the mirror turns an object the API sent into the text of a `json` column, and back: with the
// client's exact JSON (src/shared/exact.ts), so integers beyond 2^53 keep every digit in the mirror.
import { parseJsonExact, stringifyExactRaw } from '../shared/exact.js';

/** The object as JSON text, exactly as the API sent it (C1 controls raw: this is not output). */
export function toJsonText(value: unknown): string {
  return stringifyExactRaw(value) ?? 'null';
}

export function fromJsonText(text: string): unknown {
  return parseJsonExact(text);
}
