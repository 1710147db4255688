import type { ProgramSummary } from '../tables/programs.js';
import { campaignTypeName } from '../campaignTypes.js';
import { tokenDbId } from '../ids.js';
import { formatLltv, formatPoolFee } from '../opportunityUnderlying.js';
import { defaultDepositUrl, opportunityProtocol, type ProtocolCatalogue } from '../protocols.js';
import type { OpportunitySource, OpportunityTarget, StoredTvlRecord } from './sources.js';
import {
  summarizeCampaigns,
  summaryStatus,
  type CampaignWindow,
  type OpportunitySummarySource,
} from './campaignSummary.js';
import type { OpportunityRecord, TokenRecord } from './records.js';
import { foldText } from '../foldText.js';

const VERBS: Record<string, string> = {
  HOLD: 'Hold',
  POOL: 'Provide liquidity to',
  LEND: 'Supply',
  BORROW: 'Borrow',
  STAKE: 'Stake',
  DROP: 'Claim',
  LONG: 'Go long on',
  SHORT: 'Go short on',
  SWAP: 'Swap',
};

/** What names a pool or market: its tokens in the protocol's order (symbol null while unknown), fee, LLTV. */
export type NamingUnderlying = {
  tokens: { address: string; symbol: string | null }[];
  fee: number | null;
  lltv: string | null;
};

const abbreviate = (hex: string) => `${hex.slice(0, 6)}…${hex.slice(-4)}`;

/**
 * Pure: a readable opportunity name. A pool or market is named after the tokens it stands on
 * (`underlying`, loan token first for a market): "Provide liquidity to USDC-WETH 0.05%", "Supply USDC
 * to the USDC/WETH market (LLTV 86%)"; a token it holds by its symbol: "Hold stTST"; anything else,
 * and a pool or market not read yet, by its abbreviated identifier: "Provide liquidity to 0x3ce7…6bc0".
 */
export function opportunityName(
  src: Pick<OpportunitySource, 'action' | 'type' | 'identifier' | 'target'> & { underlying?: NamingUnderlying | null },
): string {
  const verb = VERBS[src.action];
  const u = src.underlying;
  if (u?.tokens.length) {
    const symbols = u.tokens.map((t) => t.symbol || abbreviate(t.address));
    if (u.lltv !== null) {
      // A Morpho Blue market: lenders supply its loan token, borrowers take it against the collateral.
      const market =
        symbols.length > 1
          ? `the ${symbols.join('/')} market (LLTV ${formatLltv(u.lltv)})`
          : `the idle ${symbols[0]} market`;
      if (src.action === 'LEND') return `Supply ${symbols[0]} to ${market}`;
      if (src.action === 'BORROW') return `Borrow ${symbols[0]} from ${market}`;
      return `${verb ?? src.type} ${market}`;
    }
    const pool = `${symbols.join('-')}${u.fee !== null ? ` ${formatPoolFee(u.fee)}` : ''}`;
    return `${verb ?? src.type} ${pool}`;
  }
  const subject = src.target?.symbol || abbreviate(src.identifier);
  return verb ? `${verb} ${subject}` : `${src.type} ${subject}`;
}

/** Pure: the Token record of a token row of the opportunity's chain (price as stored). */
function tokenRecordOf(chainId: number, t: OpportunityTarget & { display_symbol?: string | null }): TokenRecord {
  return {
    id: t.id ?? tokenDbId(chainId, t.address),
    name: t.name,
    chainId,
    address: t.address,
    decimals: t.decimals,
    symbol: t.symbol,
    icon: t.icon,
    verified: t.verified,
    isNative: t.is_native,
    isTest: t.is_test,
    type: t.type,
    price: t.price ?? null,
    updatedAt: t.price_updated_at ? Math.floor(new Date(t.price_updated_at).getTime() / 1000) : null,
    priceSource: t.price_source ?? null,
    ...(t.display_symbol ? { displaySymbol: t.display_symbol } : {}),
  };
}

/**
 * Pure: the tokens of an opportunity (#42): its target token (the identifier, when a token), then those
 * of the pool or market it stands on, in the protocol's order; each once, stored tokens only.
 */
function opportunityTokens(src: OpportunitySummarySource): TokenRecord[] {
  const rows = [src.target, ...(src.underlying?.tokens ?? []).map((t) => t.token)].filter(
    (t): t is NonNullable<typeof t> => !!t,
  );
  const seen = new Set<string>();
  return rows.flatMap((t) => (seen.has(t.address) ? [] : (seen.add(t.address), [tokenRecordOf(src.chain_id, t)])));
}

/**
 * Pure: the stored tvlRecord with its `status` (TvlStatus, #42): opportunity_metrics.tvl_status, else
 * the record's own, else `ok` for a number and `read-failed` for null; `not-computed` before the first
 * metrics run (no metrics row).
 */
function tvlRecordOf(m: OpportunitySource['metrics'], timestamp: string): OpportunityRecord['tvlRecord'] {
  const stored = m?.records.tvlRecord;
  const status = m?.tvl_status ?? stored?.status ?? (!m ? 'not-computed' : m.tvl === null ? 'read-failed' : 'ok');
  return stored ? { ...stored, status } : { total: 0, status, timestamp, breakdowns: [] };
}

/**
 * Elasticsearch opportunity document: the public Opportunity record (OpportunityRecord) as stored, plus
 * the search-only fields. Stored otherwise: `tvl`, `apr` and `totalApr` are null when unknown (not
 * indexed, so no filter, bin, sum, min or max counts them; the record serves 0), the campaign bounds
 * are Unix seconds as numbers (the record's decimal strings), `chain` is absent (the current Chain
 * record is joined when served), and documents projected before them lack `nativeAprRecord` and
 * `tvlRecord.status` (api/reads/opportunities/serialize.ts derives them).
 */
export type OpportunityDocument = Omit<
  OpportunityRecord,
  | 'tvl'
  | 'apr'
  | 'totalApr'
  | 'earliestCampaignStart'
  | 'latestCampaignStart'
  | 'earliestCampaignEnd'
  | 'latestCampaignEnd'
  | 'chain'
  | 'nativeAprRecord'
  | 'tvlRecord'
> & {
  tvl: number | null;
  apr: number | null;
  totalApr: number | null;
  earliestCampaignStart: number;
  latestCampaignStart: number;
  earliestCampaignEnd: number;
  latestCampaignEnd: number;
  nativeAprRecord?: OpportunityRecord['nativeAprRecord'];
  tvlRecord: StoredTvlRecord;
  /** Search-only: at least one of its tokens is a stablecoin (`stablecoin` filter). */
  stablecoin: boolean;
  /** Search-only: its public campaigns' windows, merged (the status at read time). */
  campaignWindows: CampaignWindow[];
  /** Search-only: the sets its campaigns' filters match. */
  campaignTypes: number[];
  creatorAddresses: string[];
  rewardTokenSymbols: string[];
  rewardTokenTypes: string[];
  programSlugs: string[];
  creatorSlugs: string[];
  chainName: string;
  /** Search-only: every reward token is a test token / a point token (`test`, `point` filters). */
  allRewardsTest: boolean;
  allRewardsPoint: boolean;
  /** Search-only: at least one campaign is not a sub-campaign (excludeSubCampaigns). */
  hasRootCampaign: boolean;
  /** Search-only: the folded name and free text (sort by name, `search`). */
  searchName: string;
  searchText: string;
  /** Search-only: when it was projected (ISO 8601). */
  indexedAt: string;
};

/**
 * Pure: the denormalized opportunity document of a source holding its campaigns as a list (fixtures,
 * benchmarks): `opportunityDocumentOf` over their summary at `now`.
 * @returns null when the opportunity has no campaign left (its document is deleted).
 */
export function toOpportunityDocument(
  src: OpportunitySource,
  chainName: string,
  now: number,
): OpportunityDocument | null {
  const { campaigns, ...rest } = src;
  return opportunityDocumentOf({ ...rest, summary: summarizeCampaigns(campaigns, now) }, chainName, now);
}

/**
 * Pure: the denormalized opportunity document (public Opportunity record plus search-only fields)
 * from its PostgreSQL sources, its public campaigns summarized at `now`. `status` and `liveCampaigns`
 * are as of `now`; readers recompute the status from `campaignWindows` (merged intervals) and keep
 * `liveCampaigns` only while LIVE (the metrics job re-projects when the count changes). Figures the
 * metrics job computes start at zero. The size of the document does not grow with the number of
 * campaigns but for its sets (creators, types, reward tokens) and separate windows.
 * @returns null when the opportunity has no campaign left (its document is deleted).
 */
export function opportunityDocumentOf(
  src: OpportunitySummarySource,
  chainName: string,
  now: number,
  protocols?: ProtocolCatalogue,
): OpportunityDocument | null {
  const summary = src.summary;
  if (!summary?.count) return null;
  const { status, liveCampaigns } = summaryStatus(summary);
  const tokens = opportunityTokens(src);
  const underlying = src.underlying ?? null;
  const name = opportunityName({
    ...src,
    underlying: underlying && {
      ...underlying,
      tokens: underlying.tokens.map((t) => ({ address: t.address, symbol: t.token?.symbol ?? null })),
    },
  });
  const timestamp = String(now);
  const m = src.metrics;
  // The protocol the back office set (PATCH /v4/opportunities/{id}), else its type's, as the catalogue serves it
  // (the registry's corrected by PATCH /v4/protocols/{id}, or one POST /v4/protocols added).
  const protocol = opportunityProtocol(src.type, src.main_protocol_id, protocols);
  return {
    id: src.id,
    chainId: src.chain_id,
    type: src.type,
    identifier: src.identifier,
    name,
    description: `Earn rewards on ${chainName}: ${name.charAt(0).toLowerCase()}${name.slice(1)}.`,
    howToSteps: [] as string[],
    status,
    action: src.action,
    tags: src.tags ?? ([] as string[]),
    mainProtocol: protocol?.id ?? '',
    // The campaign data's url wins; else the pool's or market's page on its protocol's app (#42).
    depositUrl: summary.depositUrl || defaultDepositUrl(src.type, chainName, src.identifier),
    depositUrls: [],
    // An address a block explorer can show: a V4 pool id or a Morpho market id is none, their
    // PoolManager or Morpho Blue contract is (known once the metrics job read them).
    explorerAddress: underlying?.contract ?? (/^0x[0-9a-f]{40}$/.test(src.identifier) ? src.identifier : ''),
    hidden: false,
    // Null when unknown (tvlRecord.status says why, #42): not indexed, so no TVL/APR filter, bin, sum,
    // min or max counts it, and a sort on it puts it last. The Opportunity record serves 0 (serialize.ts).
    tvl: m ? m.tvl : null,
    apr: m ? m.apr : null,
    dailyRewards: m?.daily_rewards ?? 0,
    nativeApr: m?.native_apr ?? 0,
    totalApr: m && m.apr !== null ? m.apr + m.native_apr : null,
    maxDailyRewards: m?.max_daily_rewards ?? null,
    // apr and dailyRewards stay numbers; these reward tokens are left out of them for want of a price.
    unpricedRewardTokens: m?.unpriced_reward_tokens ?? ([] as string[]),
    maxApr: null,
    liveCampaigns,
    lastCampaignCreatedAt: summary.lastCreatedAt,
    liveCampaignsForCreator: 0,
    soonCampaignsForCreator: 0,
    pastCampaignsForCreator: 0,
    earliestCampaignStart: summary.earliestStart,
    latestCampaignStart: summary.latestStart,
    earliestCampaignEnd: summary.earliestEnd,
    latestCampaignEnd: summary.latestEnd,
    distributionType: 'DUTCH_AUCTION',
    tokens,
    activePrograms: src.programs ?? ([] as ProgramSummary[]),
    protocol: protocol
      ? // Protocol-wide figures (dailyRewards, numberOfLiveCampaigns) are aggregated at read time.
        {
          ...protocol,
          opportunityLiveTags: [] as string[],
          banner: null,
          opportunityBannerLight: null,
          opportunityBannerDark: null,
          trustData: null,
        }
      : null,
    aprRecord: m?.records.aprRecord ?? { cumulated: 0, timestamp, breakdowns: [] },
    // Absent in documents of metrics stored before it (no key at all): the API derives one (serialize.ts).
    ...(m?.records.nativeAprRecord ? { nativeAprRecord: m.records.nativeAprRecord } : {}),
    tvlRecord: tvlRecordOf(m, timestamp),
    rewardsRecord: m?.records.rewardsRecord ?? { total: 0, timestamp, breakdowns: [] },
    // At least one of its tokens is a stablecoin (the `stablecoin` filter).
    stablecoin: [src.target, ...(underlying?.tokens ?? []).map((t) => t.token)].some((t) => t?.is_stablecoin === true),
    campaignWindows: summary.windows,
    campaignTypes: summary.campaignTypes,
    creatorAddresses: summary.creators,
    rewardTokenSymbols: summary.rewardSymbols,
    rewardTokenTypes: summary.rewardTypes,
    programSlugs: src.program_slugs ?? ([] as string[]),
    creatorSlugs: summary.creatorIds,
    chainName,
    // Search-only: true when every reward token is a test token / a point token (`test`, `point` filters).
    allRewardsTest: summary.allRewardsTest,
    allRewardsPoint: summary.allRewardsPoint,
    // excludeSubCampaigns keeps opportunities with at least one campaign that is not a sub-campaign.
    hasRootCampaign: summary.hasRootCampaign,
    searchName: foldText(name),
    // What the opportunity is (name, protocol, type, identifier, its tokens, chain), not what it pays:
    // reward tokens are searched with `rewardTokenSymbol` (issue 31: `search=USDC` matched every opportunity paying USDC).
    searchText: foldText(
      [
        name,
        protocol?.name ?? '',
        src.type,
        campaignTypeName(summary.firstCampaignType),
        src.identifier,
        ...tokens.flatMap((t) => [t.symbol, t.name ?? '']),
        chainName,
      ].join(' '),
    ),
    indexedAt: new Date(now * 1000).toISOString(),
  };
}
