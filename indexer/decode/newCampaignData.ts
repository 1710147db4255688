import type { Hex } from 'viem';

/** The CampaignParameters tuple of a NewCampaign / CampaignOverride log (docs/contracts.md#campaignparameters). */
export type CampaignTuple = {
  campaignId: Hex;
  creator: Hex;
  rewardToken: Hex;
  amount: bigint;
  campaignType: number;
  startTimestamp: number;
  duration: number;
  campaignData: Hex;
};

const HEX = /^0x(?:[0-9a-fA-F]{64})*$/;
const ADDRESS_WORD = /^0{24}/;
const UINT32_WORD = /^0{56}/;
/** Offsets and lengths above this are not ours to read (they would lose precision as numbers anyway). */
const SMALL_WORD = /^0{52}/;

/**
 * Pure, fast path: NewCampaign's data (`abi.encode(CampaignParameters)`, one dynamic tuple) read
 * word by word from the hex string, with no byte conversion. Addresses come back lower-case.
 * @returns null whenever the data is not in the plain shape (non-zero high bits in an address or
 *   uint32 word, offsets out of range, odd sizes): the caller then decodes the log with viem,
 *   which stays the reference.
 */
export function decodeCampaignTupleData(data: string): CampaignTuple | null {
  if (!HEX.test(data)) return null;
  const words = (data.length - 2) / 64;
  const word = (i: number) => data.slice(2 + i * 64, 2 + (i + 1) * 64);
  const small = (i: number): number | null => {
    const w = word(i);
    return SMALL_WORD.test(w) ? parseInt(w, 16) : null;
  };
  const tupleOffset = small(0);
  if (tupleOffset === null || tupleOffset % 32 !== 0) return null;
  const base = tupleOffset / 32;
  if (base < 1 || base + 8 > words) return null;
  const addresses = [word(base + 1), word(base + 2)];
  const uint32s = [word(base + 4), word(base + 5), word(base + 6)];
  if (!addresses.every((w) => ADDRESS_WORD.test(w)) || !uint32s.every((w) => UINT32_WORD.test(w))) return null;
  const dataOffset = small(base + 7);
  if (dataOffset === null || dataOffset % 32 !== 0) return null;
  const lengthWord = base + dataOffset / 32;
  if (lengthWord < base + 8 || lengthWord >= words) return null;
  const length = small(lengthWord);
  const start = 2 + (lengthWord + 1) * 64;
  if (length === null || start + length * 2 > data.length) return null;
  return {
    campaignId: `0x${word(base)}`,
    creator: `0x${addresses[0]!.slice(24).toLowerCase()}`,
    rewardToken: `0x${addresses[1]!.slice(24).toLowerCase()}`,
    amount: BigInt(`0x${word(base + 3)}`),
    campaignType: parseInt(uint32s[0]!, 16),
    startTimestamp: parseInt(uint32s[1]!, 16),
    duration: parseInt(uint32s[2]!, 16),
    campaignData: `0x${data.slice(start, start + length * 2)}`,
  };
}
