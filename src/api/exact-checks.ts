// The two checks the schemas make of an integer beyond 2^53 (an ExactInteger from parseJsonExact),
// kept apart from schemas.ts so that the validators the build generates from those schemas
// (scripts/validators.ts) can call the same functions without building zod.
import { ExactInteger } from '../shared/exact.js';

export function isExactInteger(v: unknown): boolean {
  return v instanceof ExactInteger;
}

export function isNonNegativeExactInteger(v: unknown): boolean {
  return v instanceof ExactInteger && !v.text.startsWith('-');
}
