const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/**
 * Whether every word of `query` is found in `text` with its letters in order, gaps allowed
 * ("new ass" and "nwast" find "New asset", "mrph q" finds "Morph queue"); case and accents do
 * not count.
 */
export function fuzzyMatch(text: string, query: string): boolean {
  const haystack = fold(text);
  return fold(query)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => matchesWord(haystack, word));
}

function matchesWord(haystack: string, word: string): boolean {
  let at = 0;
  for (const letter of word) {
    const found = haystack.indexOf(letter, at);
    if (found < 0) return false;
    at = found + 1;
  }
  return true;
}
