/** The separators a CSV file from a spreadsheet uses: commas, or semicolons where the decimal mark is a comma. */
export const CSV_DELIMITERS = [',', ';', '\t'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/**
 * The separator of a CSV file, read from its header row: the one of `,` `;` tab found most often outside quotes
 * (a comma when none is). Spreadsheets in countries that write decimals with a comma save "CSV" with semicolons;
 * csv-parse takes one delimiter (several at once would split a comma file's `;`-separated cells too), so the
 * file's own is found first. Header names hold none of the three, so the header decides without doubt.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = new Map<CsvDelimiter, number>();
  let quoted = false;
  for (const char of text.replace(/^\uFEFF/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && (CSV_DELIMITERS as readonly string[]).includes(char)) {
      counts.set(char as CsvDelimiter, (counts.get(char as CsvDelimiter) ?? 0) + 1);
    }
  }
  let best: CsvDelimiter = ',';
  for (const delimiter of CSV_DELIMITERS) {
    if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter;
  }
  return best;
}
