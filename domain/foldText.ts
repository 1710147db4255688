/**
 * Pure: text as the search fields index it and queries search it: accents removed (NFKD, combining
 * marks dropped) and lower-cased. The Elasticsearch build has no asciifolding filter, so folding
 * happens here, at index time and on the query string alike.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}
