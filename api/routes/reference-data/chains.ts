import Router from '@koa/router';
import { recordAudit } from '../../../domain/tables/audit.js';
import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import type { PgClient } from '../../../internal/pg.js';
import { auditActorOf } from '../../audit/auditActor.js';
import { currentChainRows, forgetChainRows } from '../../chainRecords.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { describe } from '../../openapi/describe.js';
import { chainSchema } from '../../openapi/records.js';
import { fields, type Handler, validate } from '../../validate.js';
import { listChainsQuery } from '../../reads/chains/schema.js';
import type { Actor } from './tokenWrites.js';
import { writeAndPublish } from '../../search/writeAndPublish.js';
import { toChainRecord } from '../../../domain/documents/records.js';

const countSchema = { type: 'integer', minimum: 0 } as const;

/** PATCH /v4/chains/{chainId}: a configured chain. */
export const chainParams = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId },
} as const;

/**
 * PATCH /v4/chains/{chainId} body: what an operator curates of a chain (its name, icon and block explorers). The
 * hosted service's `dailyRewards`, `liveCampaigns` and `endOfDisputePeriod` are computed from indexed data here and
 * refused (400 naming them).
 */
export const patchChainBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    icon: { type: 'string', maxLength: 500, 'x-accepts': 'an icon URL (up to 500 characters), or empty' },
    explorers: {
      type: 'array',
      maxItems: 10,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'url'],
        properties: {
          type: { type: 'string', enum: ['ETHERSCAN', 'BLOCKSCOUT', 'SOLSCAN'] },
          url: { type: 'string', pattern: '^https?://', maxLength: 500, 'x-accepts': 'an http(s) URL' },
        },
      },
    },
  },
} as const;

type ChainAudit = { id: number; name: string; icon: string; explorers: unknown; curated_fields: string[] };

/**
 * Sets the given columns of chain `id` and curates them (chains.curated_fields: the jobs writing the configured chains
 * leave them alone), records before/after, and, when its name changed, queues every campaign and opportunity of the
 * chain (their documents carry its name); null when no such chain row.
 */
async function updateChain(tx: PgClient, by: Actor, id: number, changes: Record<string, unknown>) {
  const select = 'id, name, icon, explorers, curated_fields';
  const before = await tx.query<ChainAudit>(`SELECT ${select} FROM chains WHERE id = $1 FOR UPDATE`, [id]);
  if (!before.rows[0]) return null;
  const columns = Object.keys(changes);
  const { rows } = await tx.query<ChainAudit>(
    `UPDATE chains SET ${columns.map((c, i) => (c === 'explorers' ? `${c} = $${i + 2}::jsonb` : `${c} = $${i + 2}`)).join(', ')},
       curated_fields = ARRAY(SELECT DISTINCT f FROM unnest(curated_fields || $${columns.length + 2}::text[]) AS f ORDER BY f),
       updated_at = now()
     WHERE id = $1 RETURNING ${select}`,
    [id, ...columns.map((c) => (c === 'explorers' ? JSON.stringify(changes[c]) : changes[c])), columns],
  );
  const after = rows[0]!;
  await recordAudit(tx, {
    ...by,
    action: 'update',
    entity: 'chain',
    entityId: String(id),
    before: before.rows[0],
    after,
  });
  if (after.name !== before.rows[0].name) {
    const campaigns = await tx.query<{ id: string }>(
      'SELECT id FROM campaigns WHERE distribution_chain_id = $1 OR compute_chain_id = $1',
      [id],
    );
    const opportunities = await tx.query<{ id: string }>('SELECT id FROM opportunities WHERE chain_id = $1', [id]);
    await enqueueOutbox(
      tx,
      'campaign',
      campaigns.rows.map((r) => r.id),
    );
    await enqueueOutbox(
      tx,
      'opportunity',
      opportunities.rows.map((r) => r.id),
    );
  }
  return after;
}

/** GET /v4/chains/count: how many chains GET /v4/chains lists with the same filters. */
function countChainsHandler(deps: ApiDeps): Handler<{ query: typeof listChainsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const needle = q.name?.toLowerCase();
    const rows = await currentChainRows(deps, nowSeconds(deps));
    ctx.body = rows.filter((r) => (q.test || !r.isTest) && (!needle || r.name.toLowerCase().includes(needle))).length;
  };
}

/** PATCH /v4/chains/{chainId} (back office): 404 for a chain this service does not index. */
function patchChainHandler(deps: ApiDeps): Handler<{ params: typeof chainParams; body: typeof patchChainBody }> {
  return async (ctx) => {
    const { params, body } = ctx.state;
    if (!deps.config.chains.some((c) => c.id === params.chainId))
      throw new NotFoundError(`Chain ${params.chainId} is not indexed by this service`);
    const updated = await writeAndPublish(deps, (tx) =>
      updateChain(tx, auditActorOf(ctx), params.chainId, body as Record<string, unknown>),
    );
    if (!updated) throw new NotFoundError(`Chain ${params.chainId} not found`);
    forgetChainRows(deps.pg);
    const row = (await currentChainRows(deps, nowSeconds(deps))).find((r) => r.id === params.chainId);
    if (!row) throw new NotFoundError(`Chain ${params.chainId} not found`);
    ctx.body = toChainRecord(row);
  };
}

/**
 * Chain curation (back office) and the chain count. The chains table is written from the chain config by every job
 * that indexes a chain (domain/tables/chains.ts upsertChains) and at API start; a field set here is recorded in
 * chains.curated_fields and those writes leave it alone, so an operator's name, icon or explorers survive every run
 * and restart. There is no POST (a chain is indexed only once configured: add it to the chain config) and no DELETE.
 * Tables: chains, campaigns, opportunities, back_office_audit, search_outbox.
 */
export function chainCurationRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.get(
    ['/chains/count', '/chains/count/'],
    describe({
      summary: 'Count of the chains matching the filters',
      description: 'How many chains GET /v4/chains lists with the same filters (`test=true` counts test chains too).',
      response: countSchema,
      example: 3,
    }),
    validate({ query: listChainsQuery }),
    countChainsHandler(deps),
  );
  router.patch(
    ['/chains/:chainId', '/chains/:chainId/'],
    describe({
      summary: "Correct a chain's name, icon or explorers (back office)",
      description:
        "Sets any of `name`, `icon` and `explorers` (each `{type: ETHERSCAN|BLOCKSCOUT|SOLSCAN, url}`) of an indexed chain; the fields set are curated, so neither the chain config nor any job run overwrites them. The hosted service's `dailyRewards`, `liveCampaigns` and `endOfDisputePeriod` are computed from indexed data here and refused. Audit-logged (GET /v4/audit); a new name is republished into the chain's campaign and opportunity documents before the answer.",
      response: chainSchema,
      errors: [404],
      bodyExamples: {
        rename: {
          summary: 'A display name and icon',
          value: { name: 'Ethereum Mainnet', icon: 'https://icons.example.org/ethereum.svg' },
        },
        explorers: {
          summary: 'Its block explorer',
          value: { explorers: [{ type: 'ETHERSCAN', url: 'https://etherscan.io' }] },
        },
      },
    }),
    requireBackOffice,
    validate({ params: chainParams, body: patchChainBody }),
    patchChainHandler(deps),
  );
  return router;
}
