import type { FieldError } from '../../errors.js';
import { CAMPAIGN_TYPE_NAMES } from '../../../domain/campaignTypes.js';
import type { CampaignStatus, ListCampaignsQuery } from './schema.js';
import { fields } from '../../validate.js';
import { searchWords } from './searchWords.js';

const INT32 = new RegExp(`^${fields.int32Pattern}$`);
/** Most words a campaign `search` may have. */
export const MAX_SEARCH_WORDS = 8;

/** Campaign list filters after normalization: lists split, precedence applied, values canonical. */
export type CampaignListParams = {
  page: number;
  items: number;
  ids?: string[];
  creatorTag?: string;
  creatorAddress?: string;
  creatorAddresses?: string[];
  creatorId?: string;
  chainId?: number;
  search?: string;
  distributionChainIds?: number[];
  /** Campaign type numbers (from `type`, else `types`; names resolved through CAMPAIGN_TYPE_NAMES). */
  campaignTypes?: number[];
  /** Type names no number is known for (served as `TYPE_<n>` or never): matched by name. */
  typeNames?: string[];
  subType?: number;
  /** On-chain ids, lower-case (`campaignId`, else `campaignIds`). */
  campaignIds?: string[];
  mainParameter?: string;
  tokenSymbol?: string;
  tokenAddress?: string;
  test: boolean;
  tokenTypes?: string[];
  point?: boolean;
  /** `opportunityId`, else `opportunityIds`. */
  opportunityIds?: string[];
  statuses?: CampaignStatus[];
  startAfter?: number;
  endAfter?: number;
  distributionTypes?: string[];
  /** ISO instants; undefined = no bound. */
  createdAfter?: string;
  createdBefore?: string;
  excludeSubCampaigns: boolean;
  onlySubCampaigns: boolean;
  rootCampaignId?: string;
  parentCampaignId?: string;
  mainProtocolId?: string;
  pauseCompute?: string;
  /** Lower-cased owner and list names; resolved to `listCampaignIds` by the handler. */
  listOwner?: string;
  campaignLists?: string[];
};

/** Splits repeated keys and comma lists into one trimmed, de-duplicated list (undefined when empty). */
export function splitList(values: readonly string[] | undefined): string[] | undefined {
  if (!values) return undefined;
  const out = [
    ...new Set(
      values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
  return out.length ? out : undefined;
}

const TYPE_NUMBER_BY_NAME = new Map(Object.entries(CAMPAIGN_TYPE_NAMES).map(([n, name]) => [name, Number(n)]));

/**
 * Pure: a `createdAfter` / `createdBefore` value → ISO instant, `null` for "no bound" (absent, empty,
 * `null`), or `undefined` when unparseable. Accepted: Unix seconds or milliseconds (digits; below
 * 10^11 read as seconds), a date (`2024-05-01`, UTC midnight), a date-time string (ISO 8601) or a
 * JS `Date#toString()` rendering.
 */
export function parseCreatedBound(value: string | undefined): string | null | undefined {
  if (value === undefined) return null;
  const v = value.trim();
  if (v === '' || v === 'null') return null;
  if (/^\d{1,16}$/.test(v)) {
    const n = Number(v);
    const date = new Date(n < 1e11 ? n * 1000 : n);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString(); // past JavaScript's date range: unparseable
  }
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/**
 * Pure: validated query → list params. A singular filter wins over its list (`type` over `types`,
 * `campaignId` over `campaignIds`, `opportunityId` over `opportunityIds`).
 * @returns the params, or the field errors (bad created bounds, `campaignLists` without `listOwner`).
 */
export function toListParams(q: ListCampaignsQuery): { params: CampaignListParams } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const createdAfter = parseCreatedBound(q.createdAfter);
  const createdBefore = parseCreatedBound(q.createdBefore);
  for (const [field, v] of [
    ['createdAfter', createdAfter],
    ['createdBefore', createdBefore],
  ] as const) {
    if (v === undefined)
      errors.push({ field, message: 'must be a date, a date-time string, a Unix timestamp or null' });
  }
  // A numeric type is an Elasticsearch `integer`: past 2^31 - 1 no campaign type can match, and the search would fail.
  const numericTypes = [
    ...(q.type !== undefined ? [['type', q.type]] : []),
    ...(splitList(q.types) ?? []).map((t) => ['types', t]),
  ] as [string, string][];
  for (const [field, t] of numericTypes) {
    if (/^\d+$/.test(t) && !INT32.test(t))
      errors.push({ field, message: 'must be a campaign type name or a number up to 2147483647' });
  }
  // Each search word is one opportunity lookup (searchOpportunities.ts): bounded per request.
  if (q.search && searchWords(q.search).length > MAX_SEARCH_WORDS)
    errors.push({ field: 'search', message: `must have at most ${MAX_SEARCH_WORDS} words` });
  const lists = splitList(q.campaignLists ? [q.campaignLists] : undefined);
  if (lists && !q.listOwner) errors.push({ field: 'listOwner', message: 'is required when campaignLists is set' });
  if (errors.length) return { errors };

  const typeValues = q.type !== undefined ? [q.type] : splitList(q.types);
  const typeNumbers = typeValues?.map((t) => (/^\d+$/.test(t) ? Number(t) : TYPE_NUMBER_BY_NAME.get(t.toUpperCase())));
  const unknownNames = typeValues?.filter((_, i) => typeNumbers![i] === undefined).map((t) => t.toUpperCase());
  const params: CampaignListParams = {
    page: q.page,
    items: q.items,
    ids: splitList(q.id),
    creatorTag: q.creatorTag,
    creatorAddress: q.creatorAddress?.toLowerCase(),
    creatorAddresses: splitList(q.creatorAddresses)?.map((a) => a.toLowerCase()),
    creatorId: q.creatorId,
    chainId: q.chainId,
    search: q.search,
    distributionChainIds: splitList(q.distributionChainIds)?.map(Number),
    campaignTypes: typeValues ? typeNumbers!.filter((n): n is number => n !== undefined) : undefined,
    typeNames: unknownNames?.length ? unknownNames : undefined,
    subType: q.subType,
    campaignIds: (q.campaignId !== undefined ? [q.campaignId] : splitList(q.campaignIds))?.map((c) => c.toLowerCase()),
    mainParameter: q.mainParameter,
    tokenSymbol: q.tokenSymbol,
    tokenAddress: q.tokenAddress?.toLowerCase(),
    test: q.test ?? false,
    tokenTypes: splitList(q.tokenTypes),
    point: q.point,
    opportunityIds: q.opportunityId !== undefined ? [q.opportunityId] : splitList(q.opportunityIds),
    statuses: q.status ? ([...new Set(q.status.split(','))] as CampaignStatus[]) : undefined,
    startAfter: q.startTimestamp,
    endAfter: q.endTimestamp,
    distributionTypes: splitList(q.distributionTypes),
    createdAfter: createdAfter ?? undefined,
    createdBefore: createdBefore ?? undefined,
    excludeSubCampaigns: q.excludeSubCampaigns ?? false,
    onlySubCampaigns: q.onlySubCampaigns ?? false,
    rootCampaignId: q.rootCampaignId,
    parentCampaignId: q.parentCampaignId,
    mainProtocolId: q.mainProtocolId,
    pauseCompute: q.pauseCompute,
    listOwner: q.listOwner?.toLowerCase(),
    campaignLists: lists?.map((l) => l.toLowerCase()),
  };
  return {
    params: Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as CampaignListParams,
  };
}
