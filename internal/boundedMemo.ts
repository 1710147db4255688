/**
 * A pure function remembered for its last `max` distinct keys (`keyOf` of the arguments; the whole
 * memory is dropped when full: cheap, and a batch's repeated keys sit close together). The value is
 * shared between callers, so it must not be mutated.
 */
export function boundedMemo<A extends unknown[], V>(
  fn: (...args: A) => V,
  keyOf: (...args: A) => string,
  max = 10_000,
): (...args: A) => V {
  let memory = new Map<string, V>();
  return (...args: A) => {
    const key = keyOf(...args);
    const hit = memory.get(key);
    if (hit !== undefined || memory.has(key)) return hit as V;
    const value = fn(...args);
    if (memory.size >= max) memory = new Map();
    memory.set(key, value);
    return value;
  };
}
