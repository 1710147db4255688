import {
  decodeAbiParameters,
  decodeFunctionData,
  isAddress,
  isHex,
  parseAbi,
  zeroHash,
  type Address,
  type Hex,
} from 'viem';
import type { FieldError } from '../../errors.js';
import { BaseError } from '../../../internal/errors.js';

/** The `CampaignParameters` struct (docs/contracts.md#campaignparameters) with each field typed as viem decodes it. */
export type CampaignTuple = {
  campaignId: Hex;
  creator: Address;
  rewardToken: Address;
  amount: bigint;
  campaignType: number;
  startTimestamp: number;
  duration: number;
  campaignData: Hex;
};

/** Input that could not be read as createCampaign / createCampaigns arguments; `errors` name the fields. */
export class DecodeArgsError extends BaseError {
  override readonly userError = true;
  override name = 'DecodeArgsError';
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => `${e.field} ${e.message}`).join('; '));
  }
}

/** The struct's field names, in struct order. */
export const CAMPAIGN_FIELDS = [
  'campaignId',
  'creator',
  'rewardToken',
  'amount',
  'campaignType',
  'startTimestamp',
  'duration',
  'campaignData',
] as const;
const TUPLE =
  '(bytes32 campaignId,address creator,address rewardToken,uint256 amount,uint32 campaignType,uint32 startTimestamp,uint32 duration,bytes campaignData)';
const CREATION_ABI = parseAbi([
  `function createCampaign(${TUPLE} newCampaign) returns (bytes32)`,
  `function createCampaigns(${TUPLE}[] campaigns) returns (bytes32[])`,
]);
/** Selectors of createCampaign and createCampaigns (docs/contracts.md#creating-campaigns). */
export const CREATE_CAMPAIGN_SELECTOR = '0xa63f05ad';
export const CREATE_CAMPAIGNS_SELECTOR = '0x4129fe4c';

function fromCalldata(data: Hex): readonly unknown[] {
  const selector = data.slice(0, 10).toLowerCase();
  if (selector === CREATE_CAMPAIGN_SELECTOR || selector === CREATE_CAMPAIGNS_SELECTOR) {
    const { functionName, args } = decodeFunctionData({ abi: CREATION_ABI, data });
    return functionName === 'createCampaign' ? [args[0]] : args[0];
  }
  try {
    return [decodeAbiParameters([{ type: 'tuple', components: CREATION_ABI[0].inputs[0].components }], data)[0]];
  } catch {
    return decodeAbiParameters([{ type: 'tuple[]', components: CREATION_ABI[0].inputs[0].components }], data)[0];
  }
}

const UINT32_MAX = 2 ** 32 - 1;

function uint32(value: unknown): number | undefined {
  const n =
    typeof value === 'string' && /^[0-9]{1,10}$/.test(value)
      ? Number(value)
      : typeof value === 'number' || typeof value === 'bigint'
        ? Number(value)
        : NaN;
  return Number.isInteger(n) && n >= 0 && n <= UINT32_MAX ? n : undefined;
}

/** Pure: one struct given as an array (struct order) or an object (field names) → a typed tuple, or field errors under `prefix`. */
export function toCampaignTuple(input: unknown, prefix: string): { tuple?: CampaignTuple; errors: FieldError[] } {
  const source = Array.isArray(input)
    ? Object.fromEntries(CAMPAIGN_FIELDS.map((f, i) => [f, input[i]]))
    : (input as Record<string, unknown>);
  const errors: FieldError[] = [];
  const bad = (field: string, message: string) => errors.push({ field: `${prefix}.${field}`, message });
  const campaignId = source['campaignId'] ?? zeroHash;
  if (typeof campaignId !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(campaignId))
    bad('campaignId', 'must be a 32-byte hex value');
  for (const f of ['creator', 'rewardToken'])
    if (typeof source[f] !== 'string' || !isAddress(source[f] as string, { strict: false }))
      bad(f, 'must be a 20-byte hex address');
  const rawAmount = source['amount'];
  const amount =
    typeof rawAmount === 'bigint'
      ? rawAmount
      : typeof rawAmount === 'string' && /^[0-9]{1,78}$/.test(rawAmount)
        ? BigInt(rawAmount)
        : typeof rawAmount === 'number' && Number.isSafeInteger(rawAmount) && rawAmount >= 0
          ? BigInt(rawAmount)
          : undefined;
  if (amount === undefined) bad('amount', 'must be a uint256 (digit string or integer)');
  const ints = Object.fromEntries(['campaignType', 'startTimestamp', 'duration'].map((f) => [f, uint32(source[f])]));
  for (const [f, v] of Object.entries(ints)) if (v === undefined) bad(f, 'must be a uint32 (number or digit string)');
  const campaignData = source['campaignData'];
  if (typeof campaignData !== 'string' || !isHex(campaignData) || campaignData.length % 2)
    bad('campaignData', 'must be hex bytes');
  if (errors.length) return { errors };
  return {
    errors,
    tuple: {
      campaignId: (campaignId as string).toLowerCase() as Hex,
      creator: (source['creator'] as string).toLowerCase() as Address,
      rewardToken: (source['rewardToken'] as string).toLowerCase() as Address,
      amount: amount!,
      campaignType: ints['campaignType']!,
      startTimestamp: ints['startTimestamp']!,
      duration: ints['duration']!,
      campaignData: campaignData as Hex,
    },
  };
}

/** Form bodies carry a tuple as JSON text. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DecodeArgsError([{ field: 'args', message: 'is not valid JSON' }]);
  }
}

const isStructLike = (v: unknown): boolean =>
  Array.isArray(v)
    ? v.length === 8 && !v.some((x) => typeof x === 'object' && x !== null)
    : typeof v === 'object' && v !== null;

/**
 * Pure: the arguments of a campaign-creation call → its campaigns. Accepts raw calldata (`0x…`,
 * with the createCampaign / createCampaigns selector, or the bare ABI-encoded struct or struct
 * array), one struct (array in struct order or object with field names, numbers as strings
 * allowed; an object may wrap it as `newCampaign`), or an array of structs (or `campaigns`).
 * @throws DecodeArgsError naming `args`, `args.<field>` or `args.<i>.<field>`.
 */
export function decodeCreateCampaignArgs(input: unknown): CampaignTuple[] {
  const args = typeof input === 'string' && /^\s*[[{]/.test(input) ? parseJson(input) : input;
  if (typeof args === 'string') {
    if (!isHex(args) || args.length < 10)
      throw new DecodeArgsError([
        { field: 'args', message: 'must be 0x calldata, a CampaignParameters tuple or an array of them' },
      ]);
    let decoded: readonly unknown[];
    try {
      decoded = fromCalldata(args);
    } catch (error) {
      throw new DecodeArgsError([
        {
          field: 'args',
          message: `is not createCampaign / createCampaigns calldata: ${(error as Error).message.split('\n')[0]}`,
        },
      ]);
    }
    return decoded.map((t, i) => toCampaignTuple(t, decoded.length === 1 ? 'args' : `args.${i}`).tuple!);
  }
  const wrapped =
    args && typeof args === 'object' && !Array.isArray(args)
      ? ((args as Record<string, unknown>)['newCampaign'] ?? (args as Record<string, unknown>)['campaigns'] ?? args)
      : args;
  if (!isStructLike(wrapped) && !(Array.isArray(wrapped) && wrapped.length && wrapped.every(isStructLike))) {
    throw new DecodeArgsError([
      { field: 'args', message: 'must be 0x calldata, a CampaignParameters tuple or an array of them' },
    ]);
  }
  const many = Array.isArray(wrapped) && !isStructLike(wrapped);
  const items = many ? (wrapped as unknown[]) : [wrapped];
  const results = items.map((item, i) => toCampaignTuple(item, many ? `args.${i}` : 'args'));
  const errors = results.flatMap((r) => r.errors);
  if (errors.length) throw new DecodeArgsError(errors);
  return results.map((r) => r.tuple!);
}
