import { probeHead } from '../../chain/probeHead.js';
import type { ApiDeps } from '../../deps.js';
import { probe } from '../health/checks.js';

/** Elasticsearch cluster health that needs an operator (yellow is the normal state of a one-node cluster with replicas). */
const ES_ATTENTION = new Set(['red']);

/**
 * Every dependency's state as the operations page shows it, each probed within 2 s (health's
 * probe): PostgreSQL (`SELECT 1`), Elasticsearch (cluster health, nodes, unassigned shards) and each
 * chain's RPC (latest block number and chain time). `attention` lists, most urgent first, the
 * dependencies an operator must look at: unreachable ones, then a red cluster.
 * Tables: none (SELECT 1).
 */
export async function probeDependencies(deps: ApiDeps) {
  const [postgres, elasticsearch, chains] = await Promise.all([
    probe(async () => (await deps.pg.query('SELECT 1'), {})),
    probe(async () => {
      const h = await deps.es.cluster.health({ timeout: '2000ms' });
      return { clusterStatus: h.status, nodes: h.number_of_nodes, unassignedShards: h.unassigned_shards };
    }),
    Promise.all(
      [...deps.rpc.values()].map(async (chainClient) => ({
        id: chainClient.chain.id,
        name: chainClient.chain.name,
        rpc: await probe(async () => {
          const head = await probeHead(chainClient);
          return { head: head.number, headTimestamp: head.timestamp };
        }),
      })),
    ),
  ]);
  const attention = [
    ...(postgres.ok ? [] : [{ dependency: 'postgres', reason: `unreachable: ${postgres.error}` }]),
    ...(elasticsearch.ok ? [] : [{ dependency: 'elasticsearch', reason: `unreachable: ${elasticsearch.error}` }]),
    ...chains
      .filter((c) => !c.rpc.ok)
      .map((c) => ({
        dependency: `rpc:${c.id}`,
        reason: `${c.name} RPC unreachable: ${(c.rpc as { error: string }).error}`,
      })),
    ...(elasticsearch.ok && ES_ATTENTION.has(elasticsearch.clusterStatus)
      ? [{ dependency: 'elasticsearch', reason: `cluster health ${elasticsearch.clusterStatus}` }]
      : []),
  ];
  return { checkedAt: new Date().toISOString(), attention, postgres, elasticsearch, chains };
}
