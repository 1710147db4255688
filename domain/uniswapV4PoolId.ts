import { encodeAbiParameters, keccak256, type Hex } from 'viem';

/** A Uniswap V4 pool's key (PoolKey): currency0 < currency1 (address 0 is the native token), fee in hundredths of a bip. */
export type UniswapV4PoolKey = {
  currency0: `0x${string}`;
  currency1: `0x${string}`;
  fee: number;
  tickSpacing: number;
  hooks: `0x${string}`;
};

/** Pure: a pool's id as the PoolManager computes it (PoolIdLibrary.toId): keccak256(abi.encode(PoolKey)). */
export function uniswapV4PoolId(key: UniswapV4PoolKey): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
      [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
    ),
  );
}
