import type { PgClient } from '../../internal/pg.js';

/**
 * Inside storeStagedTree's transaction, once `changed_leaves` (with each leaf's previous amount) and
 * `changed_breakdowns` are filled and before the breakdown versions are closed: the tree `seq` of
 * `chainId` gets a totals row for each token and campaign whose leaves it changed
 * (sql/migrations/2026_11_30_07_reward_totals.sql). Only the changed leaves are read: a token's or a
 * campaign's total moves by what its changed leaves hold now minus what they held, and its
 * recipients by the changed leaves that gained or lost it; the previous totals are the latest row
 * of each key. So it costs what storing the tree already costs, not a pass over the tree. Each
 * campaign total that moved also gets its change in reward_campaign_deltas (what GET
 * /v4/rewards/total/distributed sums per root, sql/migrations/2026_12_02_01_reward_campaign_deltas.sql).
 * The breakdowns' count and sum per token and per campaign of a token go to reward_breakdown_totals alike
 * (sql/migrations/2026_12_03_04_reward_reads_at_scale.sql: the token's row has campaign_id '').
 * Tables reward_token_totals, reward_campaign_totals, reward_campaign_deltas, reward_breakdown_totals (read:
 * reward_breakdown_versions).
 */
export async function storeTreeTotals(
  client: PgClient,
  chainId: number,
  seq: string,
  changed = 'changed_leaves',
): Promise<void> {
  await client.query(
    `INSERT INTO reward_token_totals (chain_id, token, seq, amount, recipients)
     SELECT $1, d.token, $2, coalesce(p.amount, 0) + d.amount, coalesce(p.recipients, 0) + d.recipients
     FROM (
       SELECT token, sum(coalesce(amount, 0) - coalesce(old_amount, 0)) AS amount,
         sum((amount IS NOT NULL)::int - was_open::int) AS recipients
       FROM ${changed} GROUP BY token
     ) d
     LEFT JOIN LATERAL (SELECT t.amount, t.recipients FROM reward_token_totals t
       WHERE t.chain_id = $1 AND t.token = d.token ORDER BY t.seq DESC LIMIT 1) p ON true
     WHERE d.amount <> 0 OR d.recipients <> 0`,
    [chainId, seq],
  );
  // What the changed leaves held of each campaign before this tree (their open breakdowns), and now.
  await client.query(
    `INSERT INTO reward_campaign_totals (chain_id, campaign_id, token, seq, amount, recipients)
     SELECT $1, d.campaign_id, d.token, $2, coalesce(p.amount, 0) + d.amount, coalesce(p.recipients, 0) + d.recipients
     FROM (
       SELECT campaign_id, token, sum(amount) AS amount, sum(recipients) AS recipients FROM (
         SELECT campaign_id, token, sum(amount) AS amount, count(DISTINCT recipient) AS recipients
         FROM changed_breakdowns GROUP BY campaign_id, token
         UNION ALL
         SELECT b.campaign_id, b.token, -sum(b.amount), -count(DISTINCT b.recipient)
         FROM ${changed} c JOIN reward_breakdown_versions b
           ON b.chain_id = $1 AND b.until_seq IS NULL AND b.recipient = c.recipient AND b.token = c.token
         WHERE c.was_open GROUP BY b.campaign_id, b.token
       ) s GROUP BY campaign_id, token
     ) d
     LEFT JOIN LATERAL (SELECT t.amount, t.recipients FROM reward_campaign_totals t
       WHERE t.chain_id = $1 AND t.campaign_id = d.campaign_id AND t.token = d.token ORDER BY t.seq DESC LIMIT 1) p ON true
     WHERE d.amount <> 0 OR d.recipients <> 0`,
    [chainId, seq],
  );
  // The tree's campaign rows just written, minus each key's row before them.
  await client.query(
    `INSERT INTO reward_campaign_deltas (chain_id, seq, campaign_id, token, delta)
     SELECT t.chain_id, t.seq, t.campaign_id, t.token, t.amount - coalesce(p.amount, 0)
     FROM reward_campaign_totals t
     LEFT JOIN LATERAL (SELECT o.amount FROM reward_campaign_totals o WHERE o.chain_id = t.chain_id
       AND o.campaign_id = t.campaign_id AND o.token = t.token AND o.seq < t.seq ORDER BY o.seq DESC LIMIT 1) p ON true
     WHERE t.chain_id = $1 AND t.seq = $2 AND t.amount <> coalesce(p.amount, 0)`,
    [chainId, seq],
  );
  await client.query(
    `INSERT INTO reward_breakdown_totals (chain_id, token, campaign_id, seq, breakdowns, amount)
     SELECT $1, d.token, d.campaign_id, $2, coalesce(p.breakdowns, 0) + d.n, coalesce(p.amount, 0) + d.amount
     FROM (
       SELECT token, coalesce(campaign_id, '') AS campaign_id, sum(n) AS n, sum(amount) AS amount FROM (
         SELECT token, campaign_id, count(*) AS n, sum(amount) AS amount FROM changed_breakdowns GROUP BY token, campaign_id
         UNION ALL
         SELECT b.token, b.campaign_id, -count(*), -sum(b.amount)
         FROM ${changed} c JOIN reward_breakdown_versions b
           ON b.chain_id = $1 AND b.until_seq IS NULL AND b.recipient = c.recipient AND b.token = c.token
         WHERE c.was_open GROUP BY b.token, b.campaign_id
       ) s GROUP BY GROUPING SETS ((token, campaign_id), (token))
     ) d
     LEFT JOIN LATERAL (SELECT t.breakdowns, t.amount FROM reward_breakdown_totals t
       WHERE t.chain_id = $1 AND t.token = d.token AND t.campaign_id = d.campaign_id ORDER BY t.seq DESC LIMIT 1) p ON true
     WHERE d.n <> 0 OR d.amount <> 0`,
    [chainId, seq],
  );
}
