/** Pure: a count with its noun in the right number: (1, 'opportunity', 'opportunities') → "1 opportunity". */
export function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
