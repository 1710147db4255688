/** Shared by the benchmark scripts: their numeric options and the percentile of a sorted sample. */

/** A positive integer option from the environment (its fallback otherwise); anything else stops the benchmark naming the variable. */
export function envPositiveInt(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** A positive number option from the environment (its fallback otherwise); anything else stops the benchmark naming the variable. */
export function envPositiveNumber(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

/** Pure: the server-side time of a response from its `Server-Timing: app;dur=<ms>` header (api/middleware/requestLog.ts), NaN when absent. */
export const serverTimingMs = (header: string | string[] | undefined) =>
  Number(/app;dur=([\d.]+)/.exec(String(header ?? ''))?.[1] ?? NaN);

/** Pure: the p-th percentile (0–100) of an ascending sample (nearest rank, clamped to the last). */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * The shape of the indices a benchmark creates: ES_SHARDS / ES_REPLICAS when set (as es:setup applies
 * them, e.g. against a cluster from scripts/services/esCluster.sh), else the mapping files' own.
 */
export function benchIndexShape(): { shards: number; replicas: number } | undefined {
  const shards = process.env['ES_SHARDS'];
  const replicas = process.env['ES_REPLICAS'];
  if (shards === undefined && replicas === undefined) return undefined;
  const count = (name: string, value: string | undefined, fallback: number, min: number) => {
    const n = Number(value ?? fallback);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}`);
    return n;
  };
  return { shards: count('ES_SHARDS', shards, 1, 1), replicas: count('ES_REPLICAS', replicas, 0, 0) };
}
