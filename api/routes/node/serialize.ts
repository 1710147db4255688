import type { ChainConfig } from '../../../internal/config.js';
import type { OpportunityNodeRow } from './repo.js';

/** A labelled node (docs/api-behaviour.md#nodes). */
export type NodeResponse = {
  id: string;
  chainId: number;
  protocol: string;
  recipient: string;
  nodesSourceId: string;
  creationBlockNumber: number;
  metadata: Record<string, unknown>;
  nodeSource: {
    id: string;
    protocol: string;
    lastFetchedBlockNumber: number;
    chainId: number;
    source: string;
    topics: string[];
  };
};

/**
 * Pure: our own contracts on the chains of `chains` whose address is `address` (lower-case):
 * DistributionCreator and Distributor, labelled from configuration (source `config`).
 */
export function contractNodes(
  chains: readonly Pick<ChainConfig, 'id' | 'distributionCreator' | 'distributor' | 'startBlock'>[],
  address: string,
  chainId: number | undefined,
): NodeResponse[] {
  return chains
    .filter((c) => chainId === undefined || c.id === chainId)
    .flatMap((c) =>
      (
        [
          ['DISTRIBUTION_CREATOR', c.distributionCreator],
          ['DISTRIBUTOR', c.distributor],
        ] as const
      )
        .filter(([, a]) => a.toLowerCase() === address)
        .map(([protocol, a]) => ({
          id: `${c.id}-${a.toLowerCase()}`,
          chainId: c.id,
          protocol,
          recipient: a.toLowerCase(),
          nodesSourceId: `config-${c.id}`,
          creationBlockNumber: c.startBlock,
          metadata: { label: protocol === 'DISTRIBUTOR' ? 'Distributor' : 'DistributionCreator' },
          nodeSource: {
            id: `config-${c.id}`,
            protocol,
            lastFetchedBlockNumber: c.startBlock,
            chainId: c.id,
            source: 'config',
            topics: [],
          },
        })),
    );
}

/** Pure: an opportunity row → a node labelled with its campaign type (source `opportunities`). */
export function opportunityNode(r: OpportunityNodeRow): NodeResponse {
  const sourceId = `opportunities-${r.chain_id}`;
  return {
    id: r.id,
    chainId: r.chain_id,
    protocol: r.type,
    recipient: r.identifier,
    nodesSourceId: sourceId,
    creationBlockNumber: Number(r.creation_block ?? 0),
    metadata: { opportunityId: r.id, action: r.action, type: r.type },
    nodeSource: {
      id: sourceId,
      protocol: r.type,
      lastFetchedBlockNumber: Number(r.last_fetched ?? 0),
      chainId: r.chain_id,
      source: 'opportunities',
      topics: [],
    },
  };
}
