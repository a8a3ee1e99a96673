/**
 * A part number as search compares it: case, spaces, dashes, dots, slashes and underscores do not count, so
 * "kmc 520", "KMC-520" and "kmc520" are one number. Full-width and other compatibility forms fold first (NFKC),
 * so a number pasted from a PDF matches too. Used when a part is saved (the stored, indexed form) and when a
 * search is run; both sides must use this one function.
 */
export function normalizePartNumber(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\-._/\\]+/g, '');
}

/** The same part number twice (in any spelling) is kept once, in the first spelling. */
export function distinctPartNumbers(numbers: readonly string[]): string[] {
  const seen = new Set<string>();
  return numbers.filter((n) => {
    const key = normalizePartNumber(n);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
