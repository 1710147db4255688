/**
 * Sizes of the chaos suite. The defaults are the reduced counts `npm test` (and CI) runs;
 * `npm run chaos` raises them (≥ 50 indexer kills, a 60 s Elasticsearch outage).
 */
const envNumber = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got ${raw}`);
  return value;
};

export const chaosSettings = {
  /** SIGKILLs of the whole indexer (scheduler process running every job) while the devnet keeps producing. */
  indexerKills: envNumber('CHAOS_KILLS', 5),
  /** Kills per job in the per-job kill test (8 jobs each). */
  jobKills: envNumber('CHAOS_JOB_KILLS', 3),
  /** Seconds Elasticsearch stays stopped under read and write load. */
  esOutageSeconds: envNumber('CHAOS_ES_OUTAGE_SECONDS', 10),
  /** Seconds PostgreSQL stays stopped between its stop and its restart. */
  pgGapSeconds: envNumber('CHAOS_PG_GAP_SECONDS', 4),
  /** Seconds the PostgreSQL read replica stays stopped under read load (API falls back to the primary). */
  replicaOutageSeconds: envNumber('CHAOS_REPLICA_OUTAGE_SECONDS', 3),
  /** Seconds the read replica's replay stays paused (lag above the bound) under write and read load. */
  replicaLagSeconds: envNumber('CHAOS_REPLICA_LAG_SECONDS', 4),
  /** Seconds the RPC endpoint stays stopped. */
  rpcOutageSeconds: envNumber('CHAOS_RPC_OUTAGE_SECONDS', 6),
  /** Devnets (chains) indexed by several scheduler processes at once in the many-chains chaos test. */
  chains: envNumber('CHAOS_CHAINS', 3),
  /** Scheduler processes sharing the work units there. */
  schedulers: envNumber('CHAOS_SCHEDULERS', 2),
  /** SIGKILLs of one of those processes (each replaced by a new one) while every chain keeps producing. */
  schedulerKills: envNumber('CHAOS_SCHEDULER_KILLS', 4),
  /** Seconds a webhook receiver stays down (connections refused) while events keep being appended. */
  webhookDownSeconds: envNumber('CHAOS_WEBHOOK_DOWN_SECONDS', 3),
  /** SIGKILLs of the jobs process delivering webhooks, each in the middle of its deliveries. */
  webhookDeliveryKills: envNumber('CHAOS_WEBHOOK_DELIVERY_KILLS', 2),
  /**
   * SIGKILLs of one node of a private three-node Elasticsearch cluster under read and indexing load
   * (each the node holding the campaigns primary, restarted once the kill has been served through).
   * 0 (the default): the case does not run, since forming the cluster takes minutes on a small
   * machine; `npm run chaos` sets it.
   */
  esNodeKills: envNumber('CHAOS_ES_NODE_KILLS', 0),
  /** Seconds a killed cluster node stays down under that load. */
  esNodeDownSeconds: envNumber('CHAOS_ES_NODE_DOWN_SECONDS', 10),
  /** SIGKILLs of one of three API processes behind the round-robin front (each restarted after its phase). */
  apiKills: envNumber('CHAOS_API_KILLS', 1),
  /** Seconds of read load before each of those kills and after it (the victim down meanwhile). */
  apiLoadSeconds: envNumber('CHAOS_API_LOAD_SECONDS', 2),
  /** Deepest reorg of the depth matrix (depths 1..N). */
  maxReorgDepth: envNumber('CHAOS_MAX_REORG_DEPTH', 12),
};
