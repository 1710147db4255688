import type { PgClient, PgPool } from '../../../internal/pg.js';

/** An opportunity whose identifier or id matched, with its first campaign block and the campaigns cursor. */
export type OpportunityNodeRow = {
  id: string;
  chain_id: number;
  type: string;
  identifier: string;
  action: string;
  creation_block: string | null;
  last_fetched: string | null;
};

/**
 * Opportunities identified by `addressOrId` (identifier, case-insensitive, or opportunity id),
 * optionally on one chain. Tables opportunities, campaigns_current, cursors (job `campaigns`).
 */
export async function findOpportunityNodes(
  db: Pick<PgPool | PgClient, 'query'>,
  addressOrId: string,
  chainId: number | undefined,
): Promise<OpportunityNodeRow[]> {
  const { rows } = await db.query<OpportunityNodeRow>(
    `SELECT o.id, o.chain_id, o.type, o.identifier, o.action, min(c.block_number)::text AS creation_block,
       (SELECT k.block_number::text FROM cursors k WHERE k.job = 'campaigns' AND k.chain_id = o.chain_id) AS last_fetched
     FROM opportunities o LEFT JOIN campaigns_current c ON c.opportunity_id = o.id
     WHERE (o.identifier = lower($1) OR o.id = $1) AND ($2::int IS NULL OR o.chain_id = $2)
     GROUP BY o.id ORDER BY o.chain_id, o.id`,
    [addressOrId, chainId ?? null],
  );
  return rows;
}
