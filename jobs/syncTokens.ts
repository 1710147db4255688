import { readTokenMetadata } from '../domain/readTokenMetadata.js';
import { enqueueOutbox } from '../domain/tables/outbox.js';
import {
  applyTokenFlags,
  documentsUsingTokens,
  listTokenAddresses,
  NATIVE_TOKEN_ADDRESS,
  updateTokenMetadata,
  upsertTokens,
} from '../indexer/store/tokens.js';
import { withTransaction } from '../internal/pg.js';
import type { Job } from '../domain/jobs/types.js';
import { jobInfo } from '../domain/jobs/catalog.js';

/**
 * Token records: each chain's native token, ERC20 metadata of every stored token re-read with
 * multicall (symbols and names do change), and the operator flags of the chain config (verified,
 * test, type TOKEN/PRETGE/POINT, stablecoin, icon, display symbol). Documents of campaigns and
 * opportunities whose tokens changed are queued for re-projection. Tables: tokens, search_outbox.
 */
export const syncTokens: Job = {
  ...jobInfo('tokens'),
  async run(deps) {
    let changed = 0;
    for (const chain of deps.config.chains) {
      if (deps.signal.aborted) break;
      const chainClient = deps.rpc.get(chain.id);
      if (!chainClient) continue;
      // One metadata read over the stored and the configured tokens (after the first run, the same ones).
      const stored = new Set(await listTokenAddresses(deps.pg, chain.id));
      const configuredAddresses = new Set(chain.tokens.map((t) => t.address.toLowerCase()));
      const rows = await readTokenMetadata(chainClient, [...new Set([...stored, ...configuredAddresses])], deps.logger);
      const metadata = rows.filter((r) => stored.has(r.address));
      const configured = rows.filter((r) => configuredAddresses.has(r.address));
      await withTransaction(deps.pg, async (tx) => {
        await upsertTokens(tx, [
          ...configured,
          { chainId: chain.id, address: NATIVE_TOKEN_ADDRESS, ...chain.nativeToken },
        ]);
        const touched = new Set([
          ...(await updateTokenMetadata(tx, metadata)),
          ...(await applyTokenFlags(tx, chain.id, [
            { address: NATIVE_TOKEN_ADDRESS, isNative: true, verified: true },
            ...chain.tokens,
          ])),
        ]);
        const documents = await documentsUsingTokens(tx, chain.id, [...touched]);
        await enqueueOutbox(tx, 'campaign', documents.campaigns);
        await enqueueOutbox(tx, 'opportunity', documents.opportunities);
        changed += touched.size;
      });
    }
    return { ranges: [], counts: { changed } };
  },
};
