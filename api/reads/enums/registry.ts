/**
 * Registry of the enumerations served by /v4/enums (docs/api-behaviour.md#enumerations). Built from the constants
 * the rest of the code base already uses; lists that only existed as TS types are declared here
 * once, checked against those types with `satisfies`.
 */
import { CAMPAIGN_TYPE_NAMES, OPPORTUNITY_ACTIONS } from '../../../domain/campaignTypes.js';
import type { OpportunityStatus } from '../../../domain/documents/campaignSummary.js';
import type { CampaignStatusRecord } from '../../../domain/campaignStatus.js';
import type { ExplorerConfig } from '../../../internal/config.js';
import { CAMPAIGN_STATUSES, TOKEN_TYPES } from '../campaigns/schema.js';

/** One value of an enum: `key` is its name, `value` its wire value (the name itself for string enums). */
export type EnumEntry = { key: string; value: string | number; description?: string };

/** One enumeration: numeric enums map names to numbers, string enums are lists of names. */
export type EnumDefinition = { name: string; type: 'number' | 'string'; entries: readonly EnumEntry[] };

/** Distribution types as they appear on responses (a campaign's `distributionType`; docs/api-behaviour.md#enumerations). */
export const DISTRIBUTION_TYPES = [
  'DUTCH_AUCTION',
  'FIX_REWARD_VALUE_PER_LIQUIDITY_VALUE',
  'FIX_REWARD_AMOUNT_PER_LIQUIDITY_VALUE',
  'FIX_REWARD_VALUE_PER_LIQUIDITY_AMOUNT',
  'FIX_REWARD_AMOUNT_PER_LIQUIDITY_AMOUNT',
  'MAX_REWARD_VALUE_PER_LIQUIDITY_VALUE',
  'MAX_REWARD_AMOUNT_PER_LIQUIDITY_VALUE',
  'MAX_REWARD_VALUE_PER_LIQUIDITY_AMOUNT',
  'MAX_REWARD_AMOUNT_PER_LIQUIDITY_AMOUNT',
  'AAVE_NET_APR',
  'ERC4626_APR',
  'ERC4626_SPREAD_CAPPED',
  'AAVE_V4_NET_APR',
  'DEEL_DISTRIBUTION',
  'SOFR_SPREAD_RATCHET',
  'ERC4626_TARGET_APR_WITH_SERVICE',
  'TARGET_APR_WITH_SERVICE',
  'NET_APR',
  'BORROW_SUBSIDY',
  'NET_APR_WITH_SERVICE',
  'YIELD_BASIS_PID',
  'COMPOSED',
] as const;

/** Opportunity status values (NONE: no campaign at all). */
export const OPPORTUNITY_STATUS_VALUES = [
  'NONE',
  'PAST',
  'LIVE',
  'SOON',
] as const satisfies readonly OpportunityStatus[];

/** Computation run statuses (`campaignStatus.status` / `preComputeStatus`). */
export const RUN_STATUSES = [
  'PROCESSING',
  'SUCCESS',
  'FAILED',
  'SKIPPED',
] as const satisfies readonly CampaignStatusRecord['status'][];

/** Chain explorer kinds. */
export const EXPLORER_TYPES = [
  'ETHERSCAN',
  'BLOCKSCOUT',
  'SOLSCAN',
] as const satisfies readonly ExplorerConfig['type'][];

/** Key-value store types and what each is for. */
export const STORE_TYPES = {
  WHITELIST: 'Addresses allowed to take part',
  BLACKLIST: 'Addresses excluded from rewards',
  BOOST: 'Per-address reward multipliers',
  REFERRER: 'Referrer of each address',
  FORWARDER: 'Addresses whose rewards are forwarded to others',
  APR: 'APR overrides',
} as const;

const described = (descriptions: Readonly<Record<string, string>>): EnumEntry[] =>
  Object.entries(descriptions).map(([key, description]) => ({ key, value: key, description }));
const names = (values: readonly string[], descriptions: Readonly<Record<string, string>> = {}): EnumEntry[] =>
  values.map((key) => ({ key, value: key, ...(descriptions[key] ? { description: descriptions[key] } : {}) }));

/** Every enum served, in listing order. */
export const ENUMS: readonly EnumDefinition[] = [
  {
    name: 'CampaignType',
    type: 'number',
    entries: Object.entries(CAMPAIGN_TYPE_NAMES).map(([value, key]) => ({ key, value: Number(value) })),
  },
  { name: 'DistributionType', type: 'string', entries: names(DISTRIBUTION_TYPES) },
  { name: 'OpportunityAction', type: 'string', entries: names(OPPORTUNITY_ACTIONS) },
  { name: 'OpportunityStatus', type: 'string', entries: names(OPPORTUNITY_STATUS_VALUES, { NONE: 'No campaign' }) },
  {
    name: 'CampaignStatus',
    type: 'string',
    entries: names(CAMPAIGN_STATUSES, { LIVE: 'Running now', PAST: 'Ended', SOON: 'Not started yet' }),
  },
  { name: 'RunStatus', type: 'string', entries: names(RUN_STATUSES) },
  {
    name: 'TokenType',
    type: 'string',
    entries: names(TOKEN_TYPES, { TOKEN: 'Transferable token', PRETGE: 'Pre-TGE token', POINT: 'Points' }),
  },
  { name: 'StoreType', type: 'string', entries: described(STORE_TYPES) },
  { name: 'ExplorerType', type: 'string', entries: names(EXPLORER_TYPES) },
];

/** The enum named `name` (case-insensitive), or undefined. */
export function findEnum(name: string): EnumDefinition | undefined {
  const wanted = name.toLowerCase();
  return ENUMS.find((e) => e.name.toLowerCase() === wanted);
}
