import { activeProgramsSql } from '../tables/programs.js';
import type { PgClient } from '../../internal/pg.js';
import { distinctSorted, type OpportunitySummarySource } from '../documents/campaignSummary.js';

/**
 * Loads opportunities with the summary of their current public campaigns at `now` (overrides applied;
 * private ones are left out of this public projection: README "Campaign visibility"), target token
 * and the tokens of the pool or market it stands on (opportunity_underlying) in one query; ids with no
 * row are absent. PostgreSQL aggregates the campaigns (windows merged with
 * gaps and islands), so memory here does not grow with an opportunity's campaigns: an opportunity of
 * 100,000 campaigns took 1.7 s and ~150–275 MiB when every campaign row came back as JSON.
 */
export async function loadOpportunitySources(
  client: PgClient,
  ids: string[],
  now: number,
): Promise<OpportunitySummarySource[]> {
  if (!ids.length) return [];
  const { rows } = await client.query<OpportunitySummarySource>(
    `WITH cand AS MATERIALIZED (
       SELECT c.opportunity_id AS oid, c.id, c.creator, c.campaign_type, c.start_timestamp AS s, c.end_timestamp AS e,
         c.created_at, c.parent_campaign_id, c.params, rt.symbol AS reward_symbol, rt.type AS reward_type, rt.is_test AS reward_is_test
       FROM campaigns_current c
       LEFT JOIN tokens rt ON rt.chain_id = c.distribution_chain_id AND rt.address = c.reward_token
       WHERE c.id IN (SELECT b.id FROM campaigns b WHERE b.opportunity_id = ANY($1::text[])
                      UNION SELECT x.campaign_db_id FROM campaign_overrides x WHERE x.opportunity_id = ANY($1::text[]))
         AND c.opportunity_id = ANY($1::text[])
         AND NOT EXISTS (SELECT 1 FROM campaign_privacy pv WHERE pv.campaign_db_id = c.id AND pv.is_private)),
     agg AS (
       SELECT oid, count(*) AS n, count(*) FILTER (WHERE s <= $2 AND $2 < e) AS live, bool_or(s > $2) AS soon,
         min(s) AS min_s, max(s) AS max_s, min(e) AS min_e, max(e) AS max_e,
         floor(extract(epoch FROM max(created_at)))::bigint AS last_created,
         array_agg(DISTINCT campaign_type) AS types, array_agg(DISTINCT creator) AS creators,
         COALESCE(array_agg(DISTINCT reward_symbol) FILTER (WHERE reward_symbol <> ''), '{}') AS symbols,
         array_agg(DISTINCT COALESCE(reward_type, 'TOKEN')) AS reward_types,
         bool_and(COALESCE(reward_is_test, false)) AS all_test, bool_and(COALESCE(reward_type = 'POINT', false)) AS all_point,
         bool_or(parent_campaign_id IS NULL) AS has_root
       FROM cand GROUP BY oid),
     creator_ids AS (
       SELECT d.oid, COALESCE(array_agg(DISTINCT k.id) FILTER (WHERE k.id IS NOT NULL), '{}') AS ids
       FROM (SELECT DISTINCT oid, creator FROM cand) d
       LEFT JOIN LATERAL (SELECT r.id FROM creators r WHERE d.creator = ANY(r.addresses) ORDER BY r.id LIMIT 1) k ON true
       GROUP BY d.oid),
     ordered AS (
       SELECT oid, s, e, max(e) OVER (PARTITION BY oid ORDER BY s, e ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_end
       FROM cand),
     islands AS (
       SELECT oid, s, e, count(*) FILTER (WHERE prev_end IS NULL OR s > prev_end)
         OVER (PARTITION BY oid ORDER BY s, e ROWS UNBOUNDED PRECEDING) AS island
       FROM ordered),
     windows AS (
       SELECT oid, json_agg(json_build_object('start', s, 'end', e) ORDER BY s) AS windows
       FROM (SELECT oid, min(s) AS s, max(e) AS e FROM islands GROUP BY oid, island) m GROUP BY oid),
     firsts AS (SELECT DISTINCT ON (oid) oid, campaign_type FROM cand ORDER BY oid, created_at, id),
     urls AS (
       SELECT DISTINCT ON (oid) oid, params->>'url' AS url FROM cand
       WHERE jsonb_typeof(params->'url') = 'string' AND params->>'url' <> '' ORDER BY oid, created_at, id)
     SELECT o.id, o.chain_id, o.type, o.identifier, o.action, o.tags, o.program_slugs, o.main_protocol_id, ${activeProgramsSql('o')} AS programs,
       CASE WHEN a.oid IS NULL THEN NULL ELSE json_build_object(
         'count', a.n, 'live', a.live, 'soon', a.soon, 'windows', w.windows,
         'earliestStart', a.min_s, 'latestStart', a.max_s, 'earliestEnd', a.min_e, 'latestEnd', a.max_e,
         'lastCreatedAt', a.last_created, 'firstCampaignType', f.campaign_type, 'campaignTypes', a.types,
         'creators', a.creators, 'creatorIds', ci.ids, 'rewardSymbols', a.symbols, 'rewardTypes', a.reward_types,
         'depositUrl', COALESCE(u.url, ''), 'allRewardsTest', a.all_test, 'allRewardsPoint', a.all_point,
         'hasRootCampaign', a.has_root) END AS summary,
       (SELECT row_to_json(t) FROM (SELECT tk.id, tk.name, tk.address, tk.symbol, tk.decimals, tk.icon, tk.verified, tk.is_native, tk.is_test, tk.type,
            tk.is_stablecoin, p.price, p.price_source, p.updated_at AS price_updated_at
          FROM tokens tk LEFT JOIN token_prices p ON p.token_id = tk.id WHERE tk.chain_id = o.chain_id AND tk.address = o.identifier) t) AS target,
       (SELECT json_build_object('fee', u.fee, 'lltv', u.lltv::text, 'contract', u.contract, 'tokens', (
            SELECT json_agg(json_build_object('address', x.address, 'token', (SELECT row_to_json(t) FROM (
                SELECT tk.id, tk.name, tk.address, tk.symbol, tk.display_symbol, tk.decimals, tk.icon, tk.verified, tk.is_native, tk.is_test,
                  tk.type, tk.is_stablecoin, p.price, p.price_source, p.updated_at AS price_updated_at
                FROM tokens tk LEFT JOIN token_prices p ON p.token_id = tk.id WHERE tk.chain_id = o.chain_id AND tk.address = x.address) t))
              ORDER BY x.ord)
            FROM unnest(u.tokens) WITH ORDINALITY x(address, ord)))
          FROM opportunity_underlying u WHERE u.opportunity_id = o.id) AS underlying,
       (SELECT row_to_json(m) FROM (SELECT tvl, apr, daily_rewards, native_apr, max_daily_rewards, records, unpriced_reward_tokens, tvl_status
          FROM opportunity_metrics WHERE opportunity_id = o.id) m) AS metrics
     FROM opportunities o
     LEFT JOIN agg a ON a.oid = o.id
     LEFT JOIN windows w ON w.oid = o.id
     LEFT JOIN creator_ids ci ON ci.oid = o.id
     LEFT JOIN firsts f ON f.oid = o.id
     LEFT JOIN urls u ON u.oid = o.id
     WHERE o.id = ANY($1::text[])`,
    [ids, now],
  );
  // Sets in the same order as summarizeCampaigns (code units), whatever the database's collation.
  return rows.map((r) =>
    r.summary
      ? {
          ...r,
          summary: {
            ...r.summary,
            campaignTypes: distinctSorted(r.summary.campaignTypes),
            creators: distinctSorted(r.summary.creators),
            creatorIds: distinctSorted(r.summary.creatorIds),
            rewardSymbols: distinctSorted(r.summary.rewardSymbols),
            rewardTypes: distinctSorted(r.summary.rewardTypes),
          },
        }
      : r,
  );
}
