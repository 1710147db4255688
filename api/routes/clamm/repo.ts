import type { PgPool } from '../../../internal/pg.js';
import {
  type CampaignVisibility,
  visibilitySqlParams,
  visibleCampaignSql,
} from '../../visibility/campaignVisibility.js';

/** A pool opportunity with its key (opportunity_underlying), its tokens' metadata and its visible campaigns. */
export type ClammPoolRow = {
  opportunity_id: string;
  chain_id: number;
  type: string;
  identifier: string;
  tokens: string[];
  fee: number | null;
  tick_spacing: number | null;
  hooks: string | null;
  symbol0: string | null;
  decimals0: number | null;
  symbol1: string | null;
  decimals1: number | null;
  campaign_ids: string[];
};

export type FindClammPoolsParams = {
  chainId: number;
  /** Campaign type names (CLAMM, UNISWAP_V4) whose opportunities are pools. */
  types: readonly string[];
  poolId: string | undefined;
  visible: CampaignVisibility;
  limit: number;
  offset: number;
};

/**
 * Pool opportunities of a chain whose key the metrics job has read (opportunity_underlying), with the
 * internal ids of the campaigns on them that `visible` allows: a pool whose every campaign is hidden
 * from the caller is not listed (a private campaign counts nowhere it may not be seen). Ordered by
 * pool id. Tables opportunities, opportunity_underlying, campaigns_current, campaign_privacy, tokens.
 */
export async function findClammPools(pg: PgPool, p: FindClammPoolsParams): Promise<ClammPoolRow[]> {
  const { rows } = await pg.query<ClammPoolRow>(
    `SELECT o.id AS opportunity_id, o.chain_id, o.type, o.identifier, u.tokens, u.fee, u.tick_spacing, u.hooks,
       t0.symbol AS symbol0, t0.decimals AS decimals0, t1.symbol AS symbol1, t1.decimals AS decimals1, v.campaign_ids
     FROM opportunities o
     JOIN opportunity_underlying u ON u.opportunity_id = o.id
     -- The campaigns on the pool now (overrides applied), found by index: created on it, or moved to it.
     CROSS JOIN LATERAL (
       SELECT array_agg(c.id ORDER BY c.id) AS campaign_ids FROM campaigns_current c
       WHERE c.id IN (SELECT x.id FROM campaigns x WHERE x.opportunity_id = o.id
                      UNION SELECT y.campaign_db_id FROM campaign_overrides y WHERE y.opportunity_id = o.id)
         AND c.opportunity_id = o.id AND ${visibleCampaignSql('c', 5, 6)}
     ) v
     LEFT JOIN tokens t0 ON t0.chain_id = o.chain_id AND t0.address = u.tokens[1]
     LEFT JOIN tokens t1 ON t1.chain_id = o.chain_id AND t1.address = u.tokens[2]
     WHERE o.chain_id = $1 AND o.type = ANY($2::text[]) AND ($3::text IS NULL OR o.identifier = lower($3))
       AND cardinality(u.tokens) = 2 AND v.campaign_ids IS NOT NULL
     ORDER BY o.identifier, o.type
     LIMIT $4 OFFSET $7`,
    [p.chainId, [...p.types], p.poolId ?? null, p.limit, ...visibilitySqlParams(p.visible), p.offset],
  );
  return rows;
}
