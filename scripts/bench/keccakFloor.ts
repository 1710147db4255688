/**
 * The hashing floor of a reward tree (scripts/bench/rewards.ts): how many keccak256 of 64-byte inputs
 * (a pair of nodes) the project's keccak (internal/keccak.ts, hash-wasm) does per second on one core.
 * Verifying an n-leaf tree takes about 2n hashes (n leaves, n − 1 pairs), so 2n at this rate is the
 * least time any ingestion on one core can take.
 */
import { loadKeccak } from '../../internal/keccak.js';

/**
 * Hashes 64-byte inputs in batches for about `seconds` on this thread (after a short warm-up).
 * @returns hashes per second.
 */
export async function keccakHashesPerSecond(seconds: number): Promise<number> {
  const keccak = await loadKeccak();
  const input = new Uint8Array(64).map((_, i) => i);
  const batch = 10_000;
  for (let i = 0; i < batch; i++) input.set(keccak.hash(input).subarray(0, 32));
  let hashes = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) {
    // Each input depends on the last output, so no call can be skipped.
    for (let i = 0; i < batch; i++) input.set(keccak.hash(input).subarray(0, 32));
    hashes += batch;
  }
  return hashes / ((performance.now() - t0) / 1000);
}
