import { runServiceScript } from './privateServices.js';

/**
 * First HTTP port of the chaos suite's own Elasticsearch cluster (node i on +i-1, transport 100 above): never the
 * shared 59200 (below the ephemeral range: privateServices.ts).
 */
export const PRIVATE_ES_CLUSTER_PORT = Number(process.env['CHAOS_ES_CLUSTER_PORT'] ?? 19981);

export type PrivateEsCluster = {
  /** Node URLs, node 1 first (what ES_URL lists). */
  urls: string[];
  /** SIGKILLs node `i` (1-based) and waits until its process is gone. */
  killNode(i: number): Promise<void>;
  /** Starts node `i` again; resolves once it answers HTTP (it rejoins the cluster by itself). */
  startNode(i: number): Promise<void>;
  /** Stops every node (the suite's `after`). */
  close(): Promise<void>;
};

/**
 * A three-node Elasticsearch cluster private to a chaos suite, started with
 * scripts/services/esCluster.sh under the chaos data directory; resolves once it is green.
 */
export async function startPrivateEsCluster({ nodes = 3 }: { nodes?: number } = {}): Promise<PrivateEsCluster> {
  if (PRIVATE_ES_CLUSTER_PORT <= 59200 && PRIVATE_ES_CLUSTER_PORT + nodes > 59200)
    throw new Error('the chaos cluster must not use the shared port 59200');
  const env = { ES_CLUSTER_PORT: String(PRIVATE_ES_CLUSTER_PORT), ES_CLUSTER_NODES: String(nodes) };
  const script = (...args: string[]) => runServiceScript('esCluster', args, env);
  await script('up');
  const urls = (await script('urls')).trim().split(',');
  return {
    urls,
    killNode: async (i) => void (await script('kill-node', String(i))),
    startNode: async (i) => void (await script('start-node', String(i))),
    close: async () => void (await script('down')),
  };
}
