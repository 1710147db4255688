/**
 * What one `/v4/users/{address}/rewards` read asks of PostgreSQL (bench:rewards, issue #45): the read's
 * own data path (api/routes/users/loadUserRewards.ts, the proofs included) run in the benchmark with a
 * connection that runs each statement first as EXPLAIN (ANALYZE, BUFFERS) and then as itself, so every
 * statement of the read is listed with its execution time, the pages it touched (shared hit / read:
 * read = not in PostgreSQL's buffers, from the OS cache or the disk) and the rows it returned.
 */
import { createProofSource } from '../../api/reads/rewardProofs.js';
import type { ApiDeps } from '../../api/deps.js';
import { loadUserRewards } from '../../api/reads/users/loadUserRewards.js';
import { PUBLIC_ONLY } from '../../domain/visibility/campaignVisibility.js';
import type { PgPool } from '../../internal/pg.js';

/** One statement of the read: its text (whitespace folded, cut at 120 characters) and EXPLAIN's figures. */
export type ExplainedStatement = { text: string; ms: number; hit: number; read: number; rows: number };

type Plan = {
  'Execution Time': number;
  Plan: { 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number; 'Actual Rows'?: number };
};

/** Pure: EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)'s answer as figures. */
export function explainedFigures(text: string, plan: Plan): ExplainedStatement {
  const folded = text.replace(/\s+/g, ' ').trim();
  return {
    text: folded.length > 120 ? `${folded.slice(0, 119)}…` : folded,
    ms: plan['Execution Time'],
    hit: plan.Plan['Shared Hit Blocks'] ?? 0,
    read: plan.Plan['Shared Read Blocks'] ?? 0,
    rows: plan.Plan['Actual Rows'] ?? 0,
  };
}

/**
 * Runs `address`'s rewards read of `chainId` on `pool` (public visibility), each statement explained.
 * @returns the statements in the order the read ran them, and the read's wall time with the explains.
 */
export async function explainUserRead(
  pool: PgPool,
  chainId: number,
  address: string,
): Promise<{ statements: ExplainedStatement[]; ms: number }> {
  const statements: ExplainedStatement[] = [];
  const explaining = {
    async query(text: string, values?: unknown[]) {
      if (typeof text === 'string' && /^\s*(SELECT|WITH)\b/i.test(text)) {
        const { rows } = await pool.query<{ 'QUERY PLAN': Plan[] }>(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
          values,
        );
        statements.push(explainedFigures(text, rows[0]!['QUERY PLAN'][0]!));
      }
      return pool.query(text, values);
    },
  } as unknown as PgPool;
  const started = performance.now();
  await loadUserRewards({
    deps: { pg: explaining } as ApiDeps,
    proofs: createProofSource({ db: explaining }),
    chainId,
    address: address.toLowerCase(),
    visible: PUBLIC_ONLY,
  });
  return { statements, ms: performance.now() - started };
}
