import { readPgOf, type ApiDeps } from '../../deps.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { loadVerifiedRootAt } from '../../reads/roots.js';
import type { Handler } from '../../validate.js';
import { toUnixSeconds } from './dates.js';
import { breakdownDiffPage, onchainCampaignIdOf } from './repo.js';
import type { campaignParams, HistoricalQuery, historicalQuery, recipientParams } from './schema.js';
import { serializeHistorical } from './serialize.js';

/**
 * The breakdowns of one campaign or recipient (`rawKey` as in the path) between the last verified
 * roots at or before both dates; a campaign's database id is resolved to its on-chain id (404 when unknown).
 */
async function historicalDiff(deps: ApiDeps, q: HistoricalQuery, by: 'campaign' | 'recipient', rawKey: string) {
  const start = toUnixSeconds(q.startDate, 'startDate');
  const end = toUnixSeconds(q.endDate, 'endDate');
  if (end < start) throw new ValidationError([{ field: 'endDate', message: 'must not be before startDate' }]);
  // History between verified roots: lag-tolerant, from the read replica when there is one.
  const db = readPgOf(deps);
  let key = rawKey.toLowerCase();
  if (by === 'campaign' && !key.startsWith('0x')) {
    const onchainId = await onchainCampaignIdOf(db, key);
    if (!onchainId) throw new NotFoundError(`No campaign ${key}`);
    key = onchainId;
  }
  const [startRoot, endRoot] = await Promise.all([
    loadVerifiedRootAt(db, q.chainId, start),
    loadVerifiedRootAt(db, q.chainId, end),
  ]);
  if (!endRoot) throw new NotFoundError(`No verified reward root on chain ${q.chainId} at or before ${q.endDate}`);
  const page = await breakdownDiffPage(db, {
    chainId: q.chainId,
    startRoot: startRoot?.root ?? null,
    endRoot: endRoot.root,
    by,
    key,
    page: q.page,
    items: q.items,
  });
  return serializeHistorical(startRoot, endRoot, page);
}

/** GET /v4/historical/campaign/{campaignId} (back office): reward diffs of a campaign between two dates. */
export function campaignHistoryHandler(
  deps: ApiDeps,
): Handler<{ params: typeof campaignParams; query: typeof historicalQuery }> {
  return async (ctx) => {
    ctx.body = await historicalDiff(deps, ctx.state.query, 'campaign', ctx.state.params.campaignId);
  };
}

/** GET /v4/historical/recipient/{recipient} (back office): reward diffs of a recipient between two dates. */
export function recipientHistoryHandler(
  deps: ApiDeps,
): Handler<{ params: typeof recipientParams; query: typeof historicalQuery }> {
  return async (ctx) => {
    ctx.body = await historicalDiff(deps, ctx.state.query, 'recipient', ctx.state.params.recipient);
  };
}
