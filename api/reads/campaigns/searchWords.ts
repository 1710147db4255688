import { foldSearchText } from '../../../domain/documents/campaignDocument.js';

/** Pure: the distinct folded words of a free-text search (case and accents folded), in order. */
export function searchWords(search: string): string[] {
  return [
    ...new Set(
      foldSearchText(search)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean),
    ),
  ];
}
