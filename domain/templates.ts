/**
 * Campaign templates (GET /v4/templates): one per campaign type we can encode, a static registry
 * (no table: templates change with code, like the layouts they derive from). `baseConfig` is the
 * part of a campaign configuration the template fixes; `completionConfig` maps each field the
 * creator still has to provide to its JSON Schema (from domain/campaignData/schemas.ts).
 */
import type { OpportunityAction } from './campaignTypes.js';
import { CLAMM_DATA_SCHEMA, ERC20_DATA_SCHEMA, type JsonSchema } from './campaignData/schemas.js';
import { protocolOf, type Protocol } from './protocols.js';

export type Template = {
  id: string;
  name: string;
  icon?: string;
  description: string;
  baseConfig: Record<string, unknown>;
  completionConfig: Record<string, JsonSchema>;
  protocolId?: string;
  protocol?: Protocol;
  action: OpportunityAction;
};

const props = (schema: JsonSchema, names: string[]): Record<string, JsonSchema> =>
  Object.fromEntries(names.map((n) => [n, (schema['properties'] as Record<string, JsonSchema>)[n]!]));

const ADDRESS: JsonSchema = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' };
const COMMON: Record<string, JsonSchema> = {
  rewardToken: ADDRESS,
  amount: { type: 'string', pattern: '^[0-9]{1,78}$' },
  startTimestamp: { type: 'integer', minimum: 0 },
  duration: { type: 'integer', minimum: 3600 },
};

/** Pure: a template of a campaign type; protocol fields come from the protocol registry. */
function template(t: Omit<Template, 'protocol' | 'protocolId'> & { typeName: string }): Template {
  const { typeName, ...rest } = t;
  const protocol = protocolOf(typeName);
  return { ...rest, ...(protocol ? { protocolId: protocol.id, protocol } : {}) };
}

/** Every template, in a stable order. */
export const TEMPLATES: readonly Template[] = [
  template({
    id: 'erc20-hold',
    typeName: 'ERC20',
    action: 'HOLD',
    name: 'Hold an ERC20 token',
    description: 'Reward holders of a token in proportion to their balance over time.',
    baseConfig: {
      campaignType: 1,
      campaignData: { whitelist: [], blacklist: [], url: '', forwarders: [], hooks: [], extraData: '0x' },
    },
    completionConfig: { ...COMMON, ...props(ERC20_DATA_SCHEMA, ['targetToken']) },
  }),
  template({
    id: 'clamm-pool',
    typeName: 'CLAMM',
    action: 'POOL',
    name: 'Provide concentrated liquidity',
    description:
      'Reward liquidity providers of a concentrated-liquidity pool, weighted by fees earned and tokens held.',
    baseConfig: {
      campaignType: 2,
      campaignData: {
        weightFees: 2000,
        weightToken0: 4000,
        weightToken1: 4000,
        isOutOfRangeIncentivized: 0,
        boostingAddress: '0x0000000000000000000000000000000000000000',
        boostedReward: 0,
        whitelist: [],
        blacklist: [],
        url: '',
        forwarders: [],
        hooks: [],
      },
    },
    completionConfig: { ...COMMON, ...props(CLAMM_DATA_SCHEMA, ['pool']) },
  }),
  template({
    id: 'morpho-lend',
    typeName: 'MORPHO',
    action: 'LEND',
    name: 'Supply to a Morpho market',
    description:
      'Reward suppliers of a lending market; the campaign data is the market address, ABI-encoded (RAW layout).',
    baseConfig: { campaignType: 7, campaignDataEncoding: 'abi.encode(address market)' },
    completionConfig: { ...COMMON, market: ADDRESS },
  }),
  template({
    id: 'ajna-borrow',
    typeName: 'AJNA',
    action: 'BORROW',
    name: 'Borrow from an Ajna pool',
    description: 'Reward borrowers of a pool; the campaign data is the pool address, ABI-encoded (RAW layout).',
    baseConfig: { campaignType: 11, campaignDataEncoding: 'abi.encode(address pool)' },
    completionConfig: { ...COMMON, market: ADDRESS },
  }),
];
