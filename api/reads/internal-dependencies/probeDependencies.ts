import { probeHead } from '../../chain/probeHead.js';
import type { ApiDeps } from '../../deps.js';
import { dependencyAttention } from '../attention.js';
import { probe } from '../health/checks.js';

/**
 * Every dependency's state as the operations page shows it, each probed within 2 s (health's
 * probe): PostgreSQL (`SELECT 1`), Elasticsearch (cluster health, nodes, unassigned shards) and each
 * chain's RPC (latest block number and chain time). `attention` lists, most urgent first, the
 * dependencies an operator must look at: unreachable ones, then a red cluster.
 * Tables: none (SELECT 1).
 */
export function probeDependencies(deps: ApiDeps): ReturnType<typeof probeNow> {
  // The operations page asks /v4/internal/jobs and /v4/internal/dependencies at once, and both probe:
  // callers while a probe is in flight share it (one round per dependency); a later call probes anew.
  let probing = inFlight.get(deps);
  if (!probing) {
    probing = probeNow(deps).finally(() => inFlight.delete(deps));
    inFlight.set(deps, probing);
  }
  return probing;
}

const inFlight = new WeakMap<ApiDeps, ReturnType<typeof probeNow>>();

async function probeNow(deps: ApiDeps) {
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
  // The same function as the operations page's attention list (api/reads/attention.ts).
  const attention = dependencyAttention({ postgres, elasticsearch, chains }).map((i) => ({
    dependency: i.subject,
    reason: i.text,
  }));
  return { checkedAt: new Date().toISOString(), attention, postgres, elasticsearch, chains };
}
