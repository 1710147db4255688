import { parseAbi } from 'viem';

/** The ERC20 metadata reads used for token records. */
export const erc20MetadataAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
]);
