/**
 * Ponder side of `npm run bench:peer` (scripts/bench/peer.ts): the DistributionCreator of one benchmark
 * devnet, from block 0, into Ponder's own Postgres store. Everything run-specific comes from the
 * environment the benchmark sets, so this file never changes between runs.
 */
import { createConfig } from 'ponder';
// The same ABI our indexer decodes with, so both sides read the very same event definition.
import { distributionCreatorAbi } from '../../domain/abis/distributionCreator';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (scripts/bench/peer.ts sets it)`);
  return value;
}

export default createConfig({
  database: { kind: 'postgres', connectionString: required('PEER_DATABASE_URL') },
  chains: { devnet: { id: Number(required('PEER_CHAIN_ID')), rpc: required('PEER_RPC_URL') } },
  contracts: {
    DistributionCreator: { chain: 'devnet', abi: distributionCreatorAbi, address: required('PEER_DISTRIBUTION_CREATOR') as `0x${string}`, startBlock: 0 },
  },
});
