import type { PgClient, PgPool } from '../../../internal/pg.js';

type Db = Pick<PgPool | PgClient, 'query'>;

/** What a reward row shows of its token. */
export type TokenInfo = { address: string; symbol: string; decimals: number; type: string; isTest: boolean };

/** Tokens of a chain by lower-case address (table tokens); unknown addresses are absent. */
export async function loadTokenInfo(
  db: Db,
  chainId: number,
  addresses: readonly string[],
): Promise<Map<string, TokenInfo>> {
  if (!addresses.length) return new Map();
  const { rows } = await db.query<{
    address: string;
    symbol: string;
    decimals: number;
    type: string;
    is_test: boolean;
  }>(
    'SELECT lower(address) AS address, symbol, decimals, type, is_test FROM tokens WHERE chain_id = $1 AND lower(address) = ANY($2::text[])',
    [chainId, addresses.map((a) => a.toLowerCase())],
  );
  return new Map(
    rows.map((r) => [
      r.address,
      { address: r.address, symbol: r.symbol, decimals: r.decimals, type: r.type, isTest: r.is_test },
    ]),
  );
}

/** A campaign's window and opportunity, as breakdowns need them. */
export type CampaignInfo = { campaignId: string; start: number; end: number; opportunityId: string | null };

/** Campaigns distributed on `chainId` by lower-case on-chain id (view campaigns_current). */
export async function loadCampaignInfo(
  db: Db,
  chainId: number,
  campaignIds: readonly string[],
): Promise<Map<string, CampaignInfo>> {
  if (!campaignIds.length) return new Map();
  const { rows } = await db.query<{ campaign_id: string; start: string; end: string; opportunity_id: string | null }>(
    `SELECT lower(campaign_id) AS campaign_id, start_timestamp::text AS start, end_timestamp::text AS end, opportunity_id
     FROM campaigns_current WHERE distribution_chain_id = $1 AND lower(campaign_id) = ANY($2::text[])`,
    [chainId, [...new Set(campaignIds.map((c) => c.toLowerCase()))]],
  );
  return new Map(
    rows.map((r) => [
      r.campaign_id,
      { campaignId: r.campaign_id, start: Number(r.start), end: Number(r.end), opportunityId: r.opportunity_id },
    ]),
  );
}

/** A users row. */
export type UserRow = { address: string; tags: string[]; tier: number };

/** The user of that address (table users), or null. */
export async function loadUser(db: Db, address: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>('SELECT address, tags, tier FROM users WHERE address = $1', [
    address.toLowerCase(),
  ]);
  return rows[0] ?? null;
}

/** Creator id of that address (table creators), or null. */
export async function loadCreatorId(db: Db, address: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM creators WHERE addresses @> ARRAY[$1::text] ORDER BY id LIMIT 1',
    [address.toLowerCase()],
  );
  return rows[0]?.id ?? null;
}
