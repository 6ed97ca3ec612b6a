// How a person's name or email is matched against what someone typed: accents and case folded, so
// "jose" finds "José" and "ZOE" finds "Zoë", and the typed text is a part of the name or email.

/** `s` without accents (combining marks after NFD), lower-cased; ß, ø and the like as they are. */
export function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** True when folded `needle` is part of any of `haystack` (folded); an empty needle matches nothing. */
export function foldedIncludes(needle: string, ...haystack: (string | null | undefined)[]): boolean {
  const n = fold(needle.trim());
  if (n === '') return false;
  return haystack.some((h) => typeof h === 'string' && fold(h).includes(n));
}
