import { parseCampaignPathId } from '../../domain/ids.js';
import type { PgPool } from '../../internal/pg.js';
import type { ApiDeps } from '../deps.js';
import { AppError } from '../errors.js';
import type { AuthState } from '../identity/types.js';
import { type CampaignVisibility, isVisible, walletVisibility } from '../../domain/visibility/campaignVisibility.js';

type Queryable = Pick<PgPool, 'query'>;

// The rule itself (what each caller may see, its SQL predicate) sits below api/ and jobs/: the event
// log's readers use it too (domain/eventLog/). Re-exported for the API's read paths.
export {
  type CampaignVisibility,
  PUBLIC_ONLY,
  publicCampaignSql,
  visibilitySqlParams,
  visibleCampaignSql,
  walletVisibility,
} from '../../domain/visibility/campaignVisibility.js';
import { PROBLEMS } from '../problems/registry.js';

/**
 * What a caller may see: with `showPrivate` false nothing private (campaign reads keep the
 * explicit opt-in); else every private campaign for the back office, those readable by the
 * caller's wallet (session, else API key owner), none for an anonymous caller.
 */
export async function campaignVisibilityOf(
  deps: Pick<ApiDeps, 'pg'>,
  state: AuthState | null | undefined,
  showPrivate: boolean | undefined,
): Promise<CampaignVisibility> {
  if (!showPrivate || !state) return 'none';
  if (state.backOffice) return 'all';
  if (!state.auth) return 'none';
  return walletVisibility(deps.pg, state.auth.address);
}

/** Elasticsearch clause (for `must_not`) excluding the private campaign documents `visible` does not allow; null when none are hidden. */
export function hiddenCampaignDocuments(visible: CampaignVisibility): Record<string, unknown> | null {
  if (visible === 'all') return null;
  const isPrivate = { term: { isPrivate: true } };
  if (visible === 'none' || !visible.length) return isPrivate;
  return { bool: { filter: [isPrivate], must_not: [{ terms: { id: [...visible] } }] } };
}

/**
 * A path id (internal, `distributionChainId-campaignId`, or the bare on-chain id) → the internal id
 * of a campaign the caller may see, or null (absent or hidden alike: a hidden campaign is a 404,
 * never a 403). An on-chain id is unique per chain only: when the caller may see it on several
 * chains, a 409 lists the composite ids to use instead (issue 31).
 * Tables: campaigns, campaign_privacy.
 */
export async function resolveVisibleCampaignDbId(
  db: Queryable,
  id: string,
  visible: CampaignVisibility,
): Promise<string | null> {
  const key = parseCampaignPathId(id);
  const select =
    'SELECT c.id, c.distribution_chain_id, coalesce(p.is_private, false) AS is_private FROM campaigns c LEFT JOIN campaign_privacy p ON p.campaign_db_id = c.id';
  type Row = { id: string; distribution_chain_id: number; is_private: boolean };
  const { rows } =
    key.kind === 'composite'
      ? await db.query<Row>(`${select} WHERE c.distribution_chain_id = $1 AND c.campaign_id = $2`, [
          key.distributionChainId,
          key.campaignId,
        ])
      : ON_CHAIN_ID.test(id)
        ? await db.query<Row>(`${select} WHERE c.campaign_id = lower($1) ORDER BY c.distribution_chain_id`, [id])
        : await db.query<Row>(`${select} WHERE c.id = $1`, [key.id]);
  const seen = rows.filter((row) => !row.is_private || isVisible(visible, row.id));
  if (seen.length > 1)
    throw new AppError(PROBLEMS.AMBIGUOUS_CAMPAIGN_ID, `Campaign ${id} exists on several chains: name one`, {
      extensions: { candidates: seen.map((r) => `${r.distribution_chain_id}-${id.toLowerCase()}`) },
    });
  return seen[0]?.id ?? null;
}

/** A bare on-chain campaign id (32 bytes). */
const ON_CHAIN_ID = /^0x[0-9a-fA-F]{64}$/;

/**
 * On-chain campaign ids (lower case) of `chainId` hidden from the caller among `campaignIds`:
 * filter breakdowns, rewards and claims through it. Tables: campaigns, campaign_privacy.
 */
export async function hiddenOnChainCampaignIds(
  db: Queryable,
  visible: CampaignVisibility,
  chainId: number | null,
  campaignIds?: readonly string[],
): Promise<Set<string>> {
  if (visible === 'all') return new Set();
  const { rows } = await db.query<{ id: string; campaign_id: string; chain_id: number }>(
    `SELECT c.id, lower(c.campaign_id) AS campaign_id, c.distribution_chain_id AS chain_id FROM campaign_privacy p JOIN campaigns c ON c.id = p.campaign_db_id
     WHERE p.is_private AND ($1::int IS NULL OR c.distribution_chain_id = $1) AND ($2::text[] IS NULL OR lower(c.campaign_id) = ANY($2::text[]))`,
    [chainId, campaignIds ? campaignIds.map((c) => c.toLowerCase()) : null],
  );
  return new Set(
    rows
      .filter((r) => !isVisible(visible, r.id))
      .map((r) => (chainId === null ? `${r.chain_id}:${r.campaign_id}` : r.campaign_id)),
  );
}

/**
 * Of `ids` (internal campaign ids), those PostgreSQL says are private now and `visible` does not
 * allow; ids of no campaign are not hidden. One indexed read; none for the back office or no ids.
 * Table campaign_privacy.
 */
export async function hiddenCampaignIds(
  db: Queryable,
  visible: CampaignVisibility,
  ids: readonly (string | undefined | null)[],
): Promise<Set<string>> {
  const present = ids.filter((id): id is string => typeof id === 'string');
  if (visible === 'all' || !present.length) return new Set();
  const { rows } = await db.query<{ id: string }>(
    'SELECT campaign_db_id AS id FROM campaign_privacy WHERE campaign_db_id = ANY($1::text[]) AND is_private',
    [present],
  );
  return new Set(rows.map((r) => r.id).filter((id) => !isVisible(visible, id)));
}

/** A campaign found by its on-chain id, as `visibleOnChainCampaign` answers it. */
export type OnChainCampaignRecord = {
  id: string;
  /** Lower-case creator address. */
  creator: string;
  /** Lower-case campaignData as created and as now in force (an override may replace it). */
  createdData: string;
  currentData: string;
};

/**
 * The campaign `campaignId` (on-chain 0x id, or a sub-campaign's decimal id) of distribution chain
 * `chainId`, when the caller may see it; null when absent or hidden alike.
 * Tables: campaigns, campaigns_current, campaign_privacy.
 */
export async function visibleOnChainCampaign(
  db: Queryable,
  visible: CampaignVisibility,
  chainId: number,
  campaignId: string,
): Promise<OnChainCampaignRecord | null> {
  const { rows } = await db.query<OnChainCampaignRecord & { is_private: boolean }>(
    `SELECT c.id, lower(c.creator) AS creator, lower(c.campaign_data) AS "createdData", lower(cur.campaign_data) AS "currentData",
       coalesce(p.is_private, false) AS is_private
     FROM campaigns c JOIN campaigns_current cur ON cur.id = c.id LEFT JOIN campaign_privacy p ON p.campaign_db_id = c.id
     WHERE c.distribution_chain_id = $1 AND c.campaign_id = lower($2)`,
    [chainId, campaignId],
  );
  const row = rows[0];
  if (!row || (row.is_private && !isVisible(visible, row.id))) return null;
  const { is_private: _, ...campaign } = row;
  return campaign;
}
