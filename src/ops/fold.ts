// How a person's name or email is matched against what someone typed: folded as the mirror's
// full-text index folds (src/shared/fold.ts), so "jose" finds "José", and the typed text is a part
// of the name or email.

import { foldText } from '../shared/fold.js';

export { foldText as fold };

/** True when folded `needle` is part of any of `haystack` (folded); an empty needle matches nothing. */
export function foldedIncludes(needle: string, ...haystack: (string | null | undefined)[]): boolean {
  const n = foldText(needle.trim());
  if (n === '') return false;
  return haystack.some((h) => typeof h === 'string' && foldText(h).includes(n));
}
