/**
 * A pure one-argument function remembered for its last `max` distinct keys (the whole memory is
 * dropped when full: cheap, and a batch's repeated keys sit close together). For pure functions of
 * a string key only; the value is shared between callers, so it must not be mutated.
 */
export function boundedMemo<V>(fn: (key: string) => V, max = 10_000): (key: string) => V {
  let memory = new Map<string, V>();
  return (key: string) => {
    const hit = memory.get(key);
    if (hit !== undefined || memory.has(key)) return hit as V;
    const value = fn(key);
    if (memory.size >= max) memory = new Map();
    memory.set(key, value);
    return value;
  };
}
