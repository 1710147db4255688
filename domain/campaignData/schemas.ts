/**
 * JSON Schemas (draft 2020-12) of the inputs behind each value of our configuration enums, served
 * by GET /v4/schemas (beta) and meant for validating campaign configurations (campaign-configuration
 * issue). Campaign-type schemas are derived from the ABI layouts in layouts.ts, so what the schema
 * accepts is exactly what the encoders take and the decoder returns (decodeCampaignData `params`).
 */
import { CAMPAIGN_TYPE_NAMES } from '../campaignTypes.js';
import { CLAMM_LAYOUT, ERC20_LAYOUT } from './layouts.js';

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export type JsonSchema = Record<string, unknown>;
/** One schema group: an enum and the input schema of each of its values. */
export type SchemaGroup = { name: string; description: string; values: string[]; schemas: Record<string, JsonSchema> };

const ADDRESS: JsonSchema = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' };
const BYTES: JsonSchema = { type: 'string', pattern: '^0x([0-9a-fA-F]{2})*$' };
const BYTES32: JsonSchema = { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' };

/** Pure: the JSON Schema of one Solidity ABI type as decoded JSON-safe (addresses and bytes hex, uint32 numbers). */
export function abiTypeSchema(type: string): JsonSchema {
  if (type.endsWith('[]')) return { type: 'array', items: abiTypeSchema(type.slice(0, -2)) };
  if (type === 'address') return ADDRESS;
  if (type === 'bytes') return BYTES;
  if (type === 'string') return { type: 'string' };
  const uint = /^uint(\d+)$/.exec(type);
  if (uint && Number(uint[1]) <= 48) return { type: 'integer', minimum: 0, maximum: 2 ** Number(uint[1]) - 1 };
  throw new Error(`no JSON Schema for ABI type ${type}`);
}

/** Pure: an ABI layout → an object schema with one property per field, `required` naming the listed ones. */
export function layoutSchema(
  title: string,
  layout: readonly { name: string; type: string }[],
  required: readonly string[],
): JsonSchema {
  return {
    $schema: JSON_SCHEMA_DIALECT,
    title,
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(layout.map((f) => [f.name, abiTypeSchema(f.type)])),
    required: [...required],
  };
}

/** Campaign types whose data uses the ERC20 layout (same set as decodeCampaignData). */
const ERC20_FAMILY = new Set([
  'ERC20',
  'ERC20_SNAPSHOT',
  'ERC20TRANSFERS',
  'ERC20LOGPROCESSOR',
  'ERC20REBASELOGPROCESSOR',
  'VEST',
  'ERC20_FIX_APR',
]);

export const ERC20_DATA_SCHEMA = layoutSchema('ERC20 campaign data', ERC20_LAYOUT, ['targetToken']);
export const CLAMM_DATA_SCHEMA = layoutSchema('CLAMM campaign data', CLAMM_LAYOUT, [
  'pool',
  'weightFees',
  'weightToken0',
  'weightToken1',
  'isOutOfRangeIncentivized',
]);
/** Types without a layout of ours: the campaign data travels as opaque bytes (decoded `{ raw }`). */
export const RAW_DATA_SCHEMA: JsonSchema = {
  $schema: JSON_SCHEMA_DIALECT,
  title: 'Raw campaign data',
  type: 'object',
  additionalProperties: false,
  properties: { raw: BYTES },
  required: ['raw'],
};

/** Pure: the campaign-data schema of a campaign type name. */
export function campaignDataSchema(typeName: string): JsonSchema {
  if (ERC20_FAMILY.has(typeName)) return ERC20_DATA_SCHEMA;
  if (typeName === 'CLAMM') return CLAMM_DATA_SCHEMA;
  return RAW_DATA_SCHEMA;
}

const CAMPAIGN_TYPES = Object.values(CAMPAIGN_TYPE_NAMES).filter((n) => n !== 'INVALID');

/** Pure: a schema with `distributionChainId` and `campaignId` added (the extended campaign-type group). */
function extended(schema: JsonSchema): JsonSchema {
  return {
    ...schema,
    title: `${String(schema['title'])} (extended)`,
    properties: {
      ...(schema['properties'] as object),
      distributionChainId: { type: 'integer', minimum: 1 },
      campaignId: BYTES32,
    },
    required: [...(schema['required'] as string[]), 'distributionChainId', 'campaignId'],
  };
}

const object = (
  title: string,
  properties: Record<string, JsonSchema>,
  required: string[] = Object.keys(properties),
): JsonSchema => ({
  $schema: JSON_SCHEMA_DIALECT,
  title,
  type: 'object',
  additionalProperties: false,
  properties,
  required,
});
const POSITIVE: JsonSchema = { type: 'number', exclusiveMinimum: 0 };

/**
 * Settings of the SOFR spread ratchet (domain/ratchet.ts): spread in percentage points over the
 * benchmark rate, recalculation period in seconds (≥ 1 h; default 14 days), anchor (Unix seconds;
 * default the campaign start), curve, and TVL tiers (USD) → boost in percentage points.
 */
export const RATCHET_SETTINGS_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    spread: { type: 'number', minimum: 0, maximum: 100 },
    period: { type: 'integer', minimum: 3600, maximum: 366 * 86_400 },
    anchor: { type: 'integer', minimum: 0 },
    curve: { type: 'string', enum: ['BASELINE', 'BOOST_GAP'] },
    tiers: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['minTvl', 'boost'],
        properties: { minTvl: { type: 'number', minimum: 0 }, boost: { type: 'number', minimum: 0, maximum: 100 } },
      },
    },
  },
};

/** Distribution methods (the API contract's distribution types) and the figure each one needs. */
export const DISTRIBUTION_METHODS: Record<string, JsonSchema> = {
  SOFR_SPREAD_RATCHET: object('SOFR spread ratchet', { ratchet: RATCHET_SETTINGS_SCHEMA }, []),
  DUTCH_AUCTION: object('Dutch auction', {}),
  ...Object.fromEntries(
    [
      'VALUE_PER_LIQUIDITY_VALUE',
      'AMOUNT_PER_LIQUIDITY_VALUE',
      'VALUE_PER_LIQUIDITY_AMOUNT',
      'AMOUNT_PER_LIQUIDITY_AMOUNT',
    ].flatMap((k) => [
      [`FIX_REWARD_${k}`, object(`Fixed reward ${k.toLowerCase()}`, { targetAmount: POSITIVE })],
      [`MAX_REWARD_${k}`, object(`Capped reward ${k.toLowerCase()}`, { maxAmount: POSITIVE })],
    ]),
  ),
  AAVE_NET_APR: object('Aave net APR', { targetApr: POSITIVE }),
  ERC4626_APR: object('ERC4626 APR', { targetApr: POSITIVE }),
  AAVE_V4_NET_APR: object('Aave v4 net APR', { targetApr: POSITIVE }),
};

/** How a position's score is computed; BOOSTED takes the CLAMM layout's boosting fields. */
const COMPUTE_SCORE_METHODS: Record<string, JsonSchema> = {
  BALANCE: object('Score = balance held', {}),
  TIME_WEIGHTED_BALANCE: object('Score = balance × time held', {}),
  BOOSTED: object('Score boosted by holding a token', {
    boostingAddress: ADDRESS,
    boostedReward: abiTypeSchema('uint32'),
  }),
};

/** Entries of the layouts' `hooks: bytes[]` field, by kind. */
const HOOK_TYPES: Record<string, JsonSchema> = {
  BOOST: object('Boost hook', {
    boostToken: ADDRESS,
    multiplierBps: { type: 'integer', minimum: 10_000, maximum: 100_000 },
  }),
  MIN_BALANCE: object('Minimum balance hook', {
    token: ADDRESS,
    minAmount: { type: 'string', pattern: '^[0-9]{1,78}$' },
  }),
  COUNTRY_BLOCK: object('Blocked countries hook', {
    countries: { type: 'array', items: { type: 'string', pattern: '^[A-Z]{2}$' }, minItems: 1 },
  }),
};

/** Log-processor campaign types (their name says PROCESSOR) and the data each takes. */
const PROCESSOR_TYPES = CAMPAIGN_TYPES.filter((n) => n.includes('PROCESSOR'));

/**
 * Every schema group of GET /v4/schemas: `campaignType`, `campaignTypeExtended`,
 * `distributionMethod`, `computeScoreMethod`, `hookType`, `processorType`.
 */
export const SCHEMA_GROUPS: readonly SchemaGroup[] = [
  {
    name: 'campaignType',
    description: 'Campaign data per campaign type',
    values: CAMPAIGN_TYPES,
    schemas: Object.fromEntries(CAMPAIGN_TYPES.map((n) => [n, campaignDataSchema(n)])),
  },
  {
    name: 'campaignTypeExtended',
    description: 'Campaign data per campaign type, with distributionChainId and campaignId',
    values: CAMPAIGN_TYPES,
    schemas: Object.fromEntries(CAMPAIGN_TYPES.map((n) => [n, extended(campaignDataSchema(n))])),
  },
  {
    name: 'distributionMethod',
    description: 'Parameters per distribution method',
    values: Object.keys(DISTRIBUTION_METHODS),
    schemas: DISTRIBUTION_METHODS,
  },
  {
    name: 'computeScoreMethod',
    description: 'Parameters per score computation method',
    values: Object.keys(COMPUTE_SCORE_METHODS),
    schemas: COMPUTE_SCORE_METHODS,
  },
  { name: 'hookType', description: 'Parameters per hook type', values: Object.keys(HOOK_TYPES), schemas: HOOK_TYPES },
  {
    name: 'processorType',
    description: 'Campaign data per log-processor type',
    values: PROCESSOR_TYPES,
    schemas: Object.fromEntries(PROCESSOR_TYPES.map((n) => [n, campaignDataSchema(n)])),
  },
];
