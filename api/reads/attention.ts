import type { Attention } from '../../domain/jobs/jobAttention.js';

/** Elasticsearch cluster health that needs an operator (yellow is the normal state of a one-node cluster with replicas). */
const ES_ATTENTION = new Set(['red']);

/** Most urgent first: what the operations page lists under "Needs attention", in this order. */
export const ATTENTION_KINDS = ['dependency', 'degraded', 'failing', 'lagging', 'paused'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

/**
 * One thing an operator must look at. `subject` names it (`postgres`, `elasticsearch`, `rpc:<chainId>`,
 * `health`, `job:<name>`), `text` says what is wrong as a sentence.
 */
export type AttentionItem = { kind: AttentionKind; subject: string; text: string };

type ProbeFacts = { ok: boolean; error?: string };

/** The dependency probes, as /v4/health and /v4/internal/dependencies make them. */
export type DependencyFacts = {
  postgres: ProbeFacts;
  elasticsearch: ProbeFacts & { clusterStatus?: string };
  chains: { id: number; name: string; rpc: ProbeFacts }[];
};

/** What degrades /v4/health beyond its dependencies: LIVE campaigns whose reward token has no fresh price. */
export type HealthFacts = {
  unpricedLiveCampaigns: {
    campaigns: number;
    tokens: { id: string; chainId: number; address: string; symbol: string | null; campaigns: number }[];
  };
} | null;

export type HealthStatus = { status: 'ok' | 'degraded'; dependenciesOk: boolean; reasons: string[] };

/** Pure: the dependencies that do not answer (each degrades /v4/health and makes it a 503). */
function unreachable(d: DependencyFacts): AttentionItem[] {
  return [
    ...(d.postgres.ok ? [] : [{ subject: 'postgres', text: `PostgreSQL unreachable: ${d.postgres.error}` }]),
    ...(d.elasticsearch.ok
      ? []
      : [{ subject: 'elasticsearch', text: `Elasticsearch unreachable: ${d.elasticsearch.error}` }]),
    ...d.chains
      .filter((c) => !c.rpc.ok)
      .map((c) => ({ subject: `rpc:${c.id}`, text: `${c.name} RPC unreachable: ${c.rpc.error}` })),
  ].map((i) => ({ kind: 'dependency' as const, ...i }));
}

/** Pure: the dependencies an operator must look at: unreachable ones, then a red cluster. */
export function dependencyAttention(d: DependencyFacts): AttentionItem[] {
  return [
    ...unreachable(d),
    ...(d.elasticsearch.ok && ES_ATTENTION.has(d.elasticsearch.clusterStatus ?? '')
      ? [
          {
            kind: 'dependency' as const,
            subject: 'elasticsearch',
            text: `Elasticsearch cluster health ${d.elasticsearch.clusterStatus}`,
          },
        ]
      : []),
  ];
}

/** Pure: why /v4/health is degraded beyond its dependencies, as a sentence; null when it is not. */
function unpricedReason(facts: HealthFacts): string | null {
  const unpriced = facts?.unpricedLiveCampaigns;
  if (!unpriced || unpriced.campaigns === 0) return null;
  const tokens = unpriced.tokens
    .slice(0, 5)
    .map((t) => `${t.symbol ?? t.address} on chain ${t.chainId} ×${t.campaigns}`)
    .join(', ');
  const more = unpriced.tokens.length > 5 ? `, ${unpriced.tokens.length - 5} more tokens` : '';
  return `${unpriced.campaigns} live campaign${unpriced.campaigns === 1 ? ' has' : 's have'} no fresh reward-token price (${tokens}${more}): their figures count it as 0`;
}

/**
 * Pure: /v4/health's `status` and why. `degraded` when a dependency does not answer or when a LIVE
 * campaign's reward token has no fresh price (its figures count it as 0); a paused or failing job does
 * not degrade it (an operators' fact: the attention list has it). `reasons` says each cause as a sentence.
 */
export function healthStatus(d: DependencyFacts, facts: HealthFacts): HealthStatus {
  const down = unreachable(d);
  const unpriced = unpricedReason(facts);
  const reasons = [...down.map((i) => i.text), ...(unpriced ? [unpriced] : [])];
  return { status: reasons.length ? 'degraded' : 'ok', dependenciesOk: down.length === 0, reasons };
}

/**
 * Pure: everything that needs an operator, most urgent first (ATTENTION_KINDS), from the same facts
 * as /v4/health (dependency probes, unpriced live campaigns: `healthStatus`) and the job cards (each
 * job's `attention`, domain/jobs/jobAttention.ts). Empty only when every dependency answers, health is
 * ok and no job is failing, lagging or paused: the page's "Nothing" line is that and nothing else.
 */
export function needsAttention(facts: {
  dependencies: DependencyFacts;
  health: HealthFacts;
  jobs: readonly { name: string; attention: Attention }[];
}): AttentionItem[] {
  const unpriced = unpricedReason(facts.health);
  const jobs = (['failing', 'lagging', 'paused'] as const).flatMap((status) =>
    facts.jobs
      .filter((j) => j.attention.status === status)
      .map((j) => ({
        kind: status,
        subject: `job:${j.name}`,
        text:
          status === 'paused'
            ? `${j.name} ${j.attention.reasons.join('; ')}`
            : `${j.name} ${status}: ${j.attention.reasons.join('; ')}`,
      })),
  );
  return [
    ...dependencyAttention(facts.dependencies),
    ...(unpriced ? [{ kind: 'degraded' as const, subject: 'health', text: `Health degraded: ${unpriced}` }] : []),
    ...jobs,
  ];
}
