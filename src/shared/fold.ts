// Names and words compared as people read them: case and accents folded ("Müller" = "muller",
// "Søren" = "soren"), as the mirror's full-text index folds them, so that a filter by name and a
// search agree.

/** Letters that carry no combining mark to strip (NFD leaves them whole). */
const LETTERS: Record<string, string> = {
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
};

/** `text` in lower case without accents. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øłđðþßæœı]/g, (c) => LETTERS[c] ?? c);
}
