/**
 * The first substring of `length` characters that two of `strings` have in common (with their
 * indices), or null. Independent random strings almost never share a long run; nonces cut from one
 * buffer at shifting offsets share nearly all of it.
 */
export function sharedSubstring(
  strings: readonly string[],
  length: number,
): { run: string; first: number; second: number } | null {
  const seen = new Map<string, number>();
  for (const [index, text] of strings.entries()) {
    const own = new Set<string>();
    for (let at = 0; at + length <= text.length; at++) own.add(text.slice(at, at + length));
    for (const run of own) {
      const first = seen.get(run);
      if (first !== undefined) return { run, first, second: index };
      seen.set(run, index);
    }
  }
  return null;
}
