import { createKeccak } from 'hash-wasm';

/**
 * keccak256 at the speed reward trees need: hash-wasm's WebAssembly keccak hashes ~1.5M 64-byte
 * inputs a second on one core here, ~13× the pure-JS one viem uses (bench:rewards prints the floor).
 * One instance per thread, reused: each call initializes, feeds and finalizes it synchronously.
 */
export type Keccak = {
  /** keccak256 of `data` (32 bytes, a new array). */
  hash(data: Uint8Array): Uint8Array;
  /** keccak256 of `a ‖ b` without concatenating them. */
  hashTwo(a: Uint8Array, b: Uint8Array): Uint8Array;
};

let shared: Promise<Keccak> | undefined;

/** The thread's keccak256 (the WebAssembly module is compiled once per thread). */
export function loadKeccak(): Promise<Keccak> {
  shared ??= createKeccak(256).then((k) => ({
    hash(data) {
      k.init();
      k.update(data);
      return k.digest('binary');
    },
    hashTwo(a, b) {
      k.init();
      k.update(a);
      k.update(b);
      return k.digest('binary');
    },
  }));
  return shared;
}
