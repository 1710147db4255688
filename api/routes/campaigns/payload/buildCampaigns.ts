import { Ajv2020 } from 'ajv/dist/2020.js';
import { encodeAbiParameters, type Hex } from 'viem';
import { computeCampaignId } from '../../../../domain/campaignId.js';
import { CAMPAIGN_TYPE_NAMES, campaignTypeName } from '../../../../domain/campaignTypes.js';
import { CLAMM_LAYOUT, ERC20_LAYOUT } from '../../../../domain/campaignData/layouts.js';
import { campaignDataSchema, DISTRIBUTION_METHODS } from '../../../../domain/campaignData/schemas.js';
import { TEMPLATES } from '../../../../domain/templates.js';
import type { FieldError } from '../../../errors.js';
import { COMMON_KEYS } from './commonKeys.js';
import type { GeneratePayloadBody } from './schema.js';

const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: true });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();
const validatorOf = (typeName: string) => {
  if (!validators.has(typeName)) validators.set(typeName, ajv.compile(campaignDataSchema(typeName)));
  return validators.get(typeName)!;
};

/** `distributionMethodParameters` of a campaign: `distributionMethod` plus that method's parameters (GET /v4/schemas, group distributionMethod). */
const distributionParametersValidator = ajv.compile({
  type: 'object',
  required: ['distributionMethod'],
  properties: { distributionMethod: { type: 'string', enum: Object.keys(DISTRIBUTION_METHODS) } },
  allOf: Object.entries(DISTRIBUTION_METHODS).map(([name, schema]) => ({
    if: { properties: { distributionMethod: { const: name } } },
    then: {
      ...schema,
      $schema: undefined,
      title: undefined,
      properties: { ...(schema['properties'] as object), distributionMethod: true },
      required: ['distributionMethod', ...((schema['required'] as string[] | undefined) ?? [])],
    },
  })),
});

/** Pure: the field errors of a campaign's distribution parameters, named under `field`. */
function distributionParameterErrors(value: unknown, field: string): FieldError[] {
  if (distributionParametersValidator(value)) return [];
  return (distributionParametersValidator.errors ?? [])
    .filter((e) => e.keyword !== 'if')
    .map((e) => {
      const sub =
        e.keyword === 'required'
          ? String(e.params['missingProperty'])
          : e.keyword === 'additionalProperties'
            ? String(e.params['additionalProperty'])
            : '';
      const path = [field, e.instancePath.slice(1).replace(/\//g, '.'), sub].filter(Boolean).join('.');
      const message =
        e.keyword === 'enum'
          ? `must be one of ${(e.params['allowedValues'] as string[]).join(', ')}`
          : e.keyword === 'additionalProperties'
            ? 'is not a parameter of this distribution method'
            : (e.message ?? 'is invalid');
      return { field: path, message };
    });
}

export type CampaignKind = { campaignType: number; typeName: string; base: Record<string, unknown> };

/**
 * Pure: what a `campaignsParams` key names: a campaign type (name like `ERC20` or numeric id) or a
 * template id of domain/templates.ts (whose base campaign data the objects complete). Null when unknown.
 */
export function resolveKind(key: string): CampaignKind | null {
  const template = TEMPLATES.find((t) => t.id === key);
  if (template) {
    const campaignType = Number(template.baseConfig['campaignType']);
    return {
      campaignType,
      typeName: campaignTypeName(campaignType),
      base: (template.baseConfig['campaignData'] as Record<string, unknown>) ?? {},
    };
  }
  const byNumber = /^\d+$/.test(key)
    ? Number(key)
    : Object.entries(CAMPAIGN_TYPE_NAMES).find(([, name]) => name === key.toUpperCase())?.[0];
  if (byNumber === undefined || CAMPAIGN_TYPE_NAMES[Number(byNumber)] === undefined || Number(byNumber) === 0)
    return null;
  return { campaignType: Number(byNumber), typeName: campaignTypeName(Number(byNumber)), base: {} };
}

/** Pure: ABI-encodes campaign data with a layout, filling absent list/string fields with empties. */
function encodeLayout(layout: readonly { name: string; type: string }[], data: Record<string, unknown>): Hex {
  const empty = (type: string) =>
    type.endsWith('[]')
      ? []
      : type === 'string'
        ? ''
        : type === 'bytes'
          ? '0x'
          : type === 'address'
            ? '0x0000000000000000000000000000000000000000'
            : 0;
  return encodeAbiParameters(
    layout,
    layout.map((f) => (data[f.name] ?? empty(f.type)) as never),
  );
}

/** Pure: campaign data bytes for a type: ERC20 and CLAMM layouts; other types take `raw` bytes or one market/pool address. */
export function encodeCampaignData(typeName: string, data: Record<string, unknown>): Hex {
  if (typeName === 'CLAMM')
    return encodeLayout(CLAMM_LAYOUT, {
      ...data,
      isOutOfRangeIncentivized:
        data['isOutOfRangeIncentivized'] === true
          ? 1
          : data['isOutOfRangeIncentivized'] === false
            ? 0
            : data['isOutOfRangeIncentivized'],
    });
  if (campaignDataSchema(typeName) === campaignDataSchema('ERC20')) return encodeLayout(ERC20_LAYOUT, data);
  return data['raw'] as Hex;
}

export type PlannedCampaign = {
  /** Where the campaign came from in the body, e.g. `campaignsParams.ERC20.0`, for error messages. */
  field: string;
  campaignId: Hex;
  campaignType: number;
  typeName: string;
  creator: `0x${string}`;
  rewardToken: `0x${string}`;
  amount: bigint;
  startTimestamp: number;
  duration: number;
  campaignData: Hex;
  /** The distribution method and its parameters, when the campaign gave them (checked against its schema). */
  distributionMethodParameters?: Record<string, unknown>;
};

/**
 * Pure: the body's campaigns as CampaignParameters, with the id the contract will derive for each
 * (docs/contracts.md#campaign-id: creator = creatorAddress, which the contract keeps since it is not zero).
 * @returns the campaigns, or the field errors naming `campaignsParams.<key>.<i>.<field>`.
 */
export function buildCampaigns(body: GeneratePayloadBody): { campaigns: PlannedCampaign[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const campaigns: PlannedCampaign[] = [];
  for (const [key, items] of Object.entries(body.campaignsParams)) {
    const kind = resolveKind(key);
    if (!kind) {
      errors.push({
        field: `campaignsParams.${key}`,
        message: 'is not a campaign type (name or number) or a template id',
      });
      continue;
    }
    items.forEach((item, i) => {
      const field = `campaignsParams.${key}.${i}`;
      const data: Record<string, unknown> = { ...kind.base };
      for (const [k, v] of Object.entries(item))
        if (!COMMON_KEYS.has(k)) data[k === 'market' || k === 'targetAddress' ? '__address' : k] = v;
      if (
        data['__address'] !== undefined &&
        campaignDataSchema(kind.typeName)['title'] === 'Raw campaign data' &&
        data['raw'] === undefined
      ) {
        data['raw'] = encodeAbiParameters([{ type: 'address' }], [data['__address'] as `0x${string}`]);
      }
      delete data['__address'];
      if (item['distributionMethodParameters'] !== undefined) {
        const problems = distributionParameterErrors(
          item['distributionMethodParameters'],
          `${field}.distributionMethodParameters`,
        );
        if (problems.length) return void errors.push(...problems);
      }
      const validate = validatorOf(kind.typeName);
      if (!validate(data)) {
        for (const e of validate.errors ?? []) {
          const sub =
            e.keyword === 'required'
              ? String(e.params['missingProperty'])
              : e.keyword === 'additionalProperties'
                ? String(e.params['additionalProperty'])
                : e.instancePath.slice(1).replace(/\//g, '.');
          errors.push({
            field: [field, sub].filter(Boolean).join('.'),
            message:
              e.keyword === 'additionalProperties'
                ? `is not a field of ${kind.typeName} campaign data`
                : (e.message ?? 'is invalid'),
          });
        }
        return;
      }
      const start = Number(item['startTimestamp'] ?? body.startTimestamp);
      const end =
        item['duration'] !== undefined
          ? start + Number(item['duration'])
          : Number(item['endTimestamp'] ?? body.endTimestamp);
      if (!(end > start)) {
        // Named where the end was given: the campaign's own endTimestamp or duration, else the top-level one (issue 31).
        const own =
          item['duration'] !== undefined ? 'duration' : item['endTimestamp'] !== undefined ? 'endTimestamp' : null;
        return void errors.push({
          field: own ? `${field}.${own}` : 'endTimestamp',
          message:
            own === 'duration'
              ? 'must be positive (a campaign needs a duration)'
              : 'must be after startTimestamp (a campaign needs a duration)',
        });
      }
      const campaignData = encodeCampaignData(kind.typeName, data);
      const planned = {
        field,
        campaignType: kind.campaignType,
        typeName: kind.typeName,
        creator: body.creatorAddress,
        rewardToken: body.rewardToken,
        amount: BigInt(String(item['amount'])),
        startTimestamp: start,
        duration: end - start,
        campaignData,
        ...(item['distributionMethodParameters'] !== undefined
          ? { distributionMethodParameters: item['distributionMethodParameters'] as Record<string, unknown> }
          : {}),
      };
      campaigns.push({ ...planned, campaignId: computeCampaignId({ chainId: body.distributionChainId, ...planned }) });
    });
  }
  const seen = new Set<string>();
  campaigns.forEach((c, i) => {
    if (seen.has(c.campaignId))
      errors.push({
        field: 'campaignsParams',
        message: `campaign ${i} repeats another one's id ${c.campaignId} (same creator, token, type, start, duration and data): shift its start by a second`,
      });
    seen.add(c.campaignId);
  });
  return { campaigns, errors };
}
