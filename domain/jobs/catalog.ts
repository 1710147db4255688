import type { JobInfo } from './types.js';

/**
 * Every job's name, default schedule and purpose, in the order a full indexing pass runs them. The
 * face the API and the operations pages read (no job code is loaded with it); jobs/registry.ts
 * attaches each job's code.
 */
export const JOB_CATALOG: readonly JobInfo[] = [
  {
    name: 'blocks',
    perChain: true,
    defaultCron: '*/5 * * * * *',
    description: 'Canonical block headers of every chain into PostgreSQL, rolling back reorganized blocks.',
  },
  {
    name: 'campaigns',
    perChain: true,
    defaultCron: '*/5 * * * * *',
    description:
      'DistributionCreator events into PostgreSQL, then campaign and opportunity documents to Elasticsearch.',
  },
  {
    name: 'campaign-fees',
    perChain: true,
    defaultCron: '*/10 * * * * *',
    description:
      'Creation fee of each new campaign from its transaction receipt (reward-token transfers not to the Distributor) into PostgreSQL.',
    noBlockLag: 'reads the receipts of campaigns already indexed; follows no block range of its own',
  },
  {
    name: 'roots',
    perChain: true,
    defaultCron: '*/10 * * * * *',
    description:
      'Distributor roots into PostgreSQL; reward trees fetched, verified against the on-chain root, then stored.',
  },
  {
    name: 'claims',
    perChain: true,
    defaultCron: '*/10 * * * * *',
    description: 'Distributor Claimed events into PostgreSQL (claimed deltas per recipient and token).',
  },
  {
    name: 'tokens',
    perChain: true,
    defaultCron: '0 */5 * * * *',
    description: 'Native tokens, ERC20 metadata refresh and operator token flags.',
    noBlockLag: 're-reads every stored token on each run and follows no block range',
  },
  {
    name: 'prices',
    defaultCron: '0 * * * * *',
    description:
      'Token USD prices from on-chain feeds, then the HTTP price API, into PostgreSQL; repriced campaigns to the search outbox.',
    noBlockLag: 'prices are read as of now and follow no block range',
  },
  {
    name: 'benchmark-rate',
    defaultCron: '0 7 * * * *',
    // Hourly on purpose: SOFR (the Secured Overnight Financing Rate) is published once a business day;
    // an hourly fetch stores a new day's rate within the hour. "Overnight" is the rate's tenor, not when the job runs.
    description:
      "Daily SOFR fixings (the Secured Overnight Financing Rate) for the spread ratchet, fetched every hour so a new day's rate is stored within the hour.",
    noBlockLag: 'reads an HTTP rate series, not a chain',
  },
  {
    name: 'metrics',
    defaultCron: '15 * * * * *',
    description: 'TVL, daily rewards, APR and statuses of campaigns and opportunities, with history snapshots.',
    noBlockLag: 'computes from stored rows as of now and follows no block range',
  },
  {
    name: 'distributed',
    defaultCron: '*/10 * * * * *',
    description:
      'Rebuilds the rollup of what the live roots distributed per campaign facets (GET /v4/rewards/total/distributed) when a write it depends on or a live root changed.',
    noBlockLag: 'follows the stored roots, campaigns and prices, and the live roots, not a block range',
  },
  {
    name: 'publish',
    defaultCron: '*/2 * * * * *',
    description: 'Projects queued campaign and opportunity changes from PostgreSQL into Elasticsearch.',
    noBlockLag: 'drains the search outbox (its depth and age are its backlog)',
  },
  {
    name: 'webhooks',
    defaultCron: '*/5 * * * * *',
    concurrent: true,
    description:
      'Delivers the event log to webhooks, signed, in order, at least once; retries failed deliveries as they fall due.',
    noBlockLag: 'follows the event log (each webhook’s cursor), not a chain',
  },
  {
    name: 'retention',
    defaultCron: '0 17 3 * * *',
    description:
      'Deletes old job runs, expired nonces, IdP flows, token revocations, rate-limit windows and stored configurations no campaign uses.',
    noBlockLag: 'housekeeping; follows no block range',
  },
];

/** The names of every job, in catalog order. */
export const JOB_NAMES: readonly string[] = JOB_CATALOG.map((j) => j.name);

/** The catalog entry of a job; throws for a name that is not a job (a programming error). */
export function jobInfo(name: string): JobInfo {
  const info = JOB_CATALOG.find((j) => j.name === name);
  if (!info) throw new Error(`unknown job ${name}`);
  return info;
}
