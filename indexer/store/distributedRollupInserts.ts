import { CAMPAIGN_JOIN, CAMPAIGN_ROWS, clampedSql, PRICED, usdOf } from '../../domain/tables/distributed.js';

/**
 * The statements of the `distributed` rollups' rebuild (writeDistributedRollup), in order: every
 * rollup is a GROUP BY of the one before it, down from one pass over PRICED into a temporary table
 * per campaign and root. INSERT … SELECT only: no row passes through the process.
 */

const MONTH = `to_char(to_timestamp(timestamp) AT TIME ZONE 'UTC', 'YYYY-MM')`;

/** Per root, campaign and token, what it distributed with every facet a read filters or groups by. */
export const CREATE_BASE = `
  CREATE TEMP TABLE distributed_rollup_base (
    chain_id integer, timestamp bigint, token text, campaign_db_id text, campaign_type integer,
    compute_chain_id integer, is_test boolean, is_sub_campaign boolean, private_campaign_db_id text,
    start_timestamp bigint, end_timestamp bigint, opportunity_id text, main_parameter text,
    amount numeric, usd double precision, unpriced boolean
  ) ON COMMIT DROP`;

/**
 * PRICED over every counted root (parameters $1–$6; no window, no grain) joined to its campaigns as
 * the exact read joins them (CAMPAIGN_ROWS, CAMPAIGN_JOIN); the campaign's start and end clamped to
 * the horizon [$7, $8] (clampedSql); its main parameter only when it has no opportunity id (what
 * derives one). The USD of each change is the exact read's (usdOf), summed in another order.
 */
export const INSERT_BASE = `
  INSERT INTO distributed_rollup_base
  WITH ${PRICED}${CAMPAIGN_ROWS}
  SELECT x.chain_id, x.timestamp, x.token, cc.id, cc.campaign_type, cc.compute_chain_id, rt.chain_id IS NOT NULL,
    cc.parent_campaign_id IS NOT NULL, CASE WHEN coalesce(pv.is_private, false) THEN cc.id END,
    ${clampedSql('cc.start_timestamp', '$7', '$8')}, ${clampedSql('cc.end_timestamp', '$7', '$8')},
    cc.opportunity_id, CASE WHEN cc.opportunity_id IS NULL THEN cc.main_parameter END,
    sum(x.delta), coalesce(sum(${usdOf('x')}), 0)::float8, bool_or(x.price IS NULL)
  FROM priced x
  ${CAMPAIGN_JOIN}
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13`;

const FACETS = 'campaign_type, compute_chain_id, is_test, is_sub_campaign, private_campaign_db_id';

/** distributed_status_rollup: per root, token, facets and clamped bounds. */
export const INSERT_STATUS = `
  INSERT INTO distributed_status_rollup (chain_id, timestamp, month, token, ${FACETS}, start_timestamp, end_timestamp,
    amount, usd, unpriced)
  SELECT chain_id, timestamp, ${MONTH}, token, ${FACETS}, start_timestamp, end_timestamp,
    sum(amount), sum(usd), bool_or(unpriced)
  FROM distributed_rollup_base GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11`;

/** distributed_facet_rollup (the reads without a status): the status rollup without the bounds. */
export const INSERT_FACET = `
  INSERT INTO distributed_facet_rollup (chain_id, timestamp, month, token, ${FACETS}, amount, usd, unpriced)
  SELECT chain_id, timestamp, month, token, ${FACETS}, sum(amount), sum(usd), bool_or(unpriced)
  FROM distributed_status_rollup GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9`;

/** distributed_type_rollup: the facet rollup without the token (the USD routes). */
export const INSERT_TYPE = `
  INSERT INTO distributed_type_rollup (chain_id, timestamp, month, ${FACETS}, usd)
  SELECT chain_id, timestamp, month, ${FACETS}, sum(usd)
  FROM distributed_facet_rollup GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`;

/** distributed_status_type_rollup: the status rollup without the token (the USD routes with a status). */
export const INSERT_STATUS_TYPE = `
  INSERT INTO distributed_status_type_rollup (chain_id, timestamp, month, ${FACETS}, start_timestamp, end_timestamp, usd)
  SELECT chain_id, timestamp, month, ${FACETS}, start_timestamp, end_timestamp, sum(usd)
  FROM distributed_status_rollup GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`;

const OPPORTUNITY = `opportunity_id, main_parameter, ${FACETS}, start_timestamp, end_timestamp`;

/**
 * distributed_opportunity_rollup: per campaign and root (tokens summed), the campaign's previous
 * root with a change (prev_timestamp), then per opportunity, root, previous root and facets: USD and
 * the number of campaigns. A campaign's facets are its own, so it stays in one group per root.
 */
export const INSERT_OPPORTUNITY = `
  INSERT INTO distributed_opportunity_rollup (chain_id, timestamp, prev_timestamp, ${OPPORTUNITY}, usd, campaigns)
  SELECT chain_id, timestamp, prev_timestamp, ${OPPORTUNITY}, sum(usd), count(*)
  FROM (
    SELECT *, lag(timestamp) OVER (PARTITION BY campaign_db_id ORDER BY timestamp) AS prev_timestamp
    FROM (
      SELECT chain_id, timestamp, campaign_db_id, ${OPPORTUNITY}, sum(usd) AS usd
      FROM distributed_rollup_base GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    ) per_root
  ) c
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12`;

/** distributed_opportunity_total: the opportunity rollup over every root (a campaign counted at its first change). */
export const INSERT_OPPORTUNITY_TOTAL = `
  INSERT INTO distributed_opportunity_total (chain_id, ${OPPORTUNITY}, usd, campaigns)
  SELECT chain_id, ${OPPORTUNITY}, sum(usd), coalesce(sum(campaigns) FILTER (WHERE prev_timestamp IS NULL), 0)
  FROM distributed_opportunity_rollup GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`;

/** distributed_opportunity_rank: per opportunity, the public campaigns of non-test reward tokens over every root and chain. */
export const INSERT_OPPORTUNITY_RANK = `
  INSERT INTO distributed_opportunity_rank (opportunity_id, usd, campaigns)
  SELECT opportunity_id, sum(usd), sum(campaigns)
  FROM distributed_opportunity_total WHERE NOT is_test AND private_campaign_db_id IS NULL GROUP BY 1`;

/** Every table the rebuild empties first (the rollups; the state, markers and clock are written apart). */
export const ROLLUP_TABLES = [
  'distributed_status_rollup',
  'distributed_facet_rollup',
  'distributed_type_rollup',
  'distributed_status_type_rollup',
  'distributed_opportunity_rollup',
  'distributed_opportunity_total',
  'distributed_opportunity_rank',
] as const;
