import Router from '@koa/router';
import type { ApiDeps } from '../deps.js';
import { blockTimestampRouter } from './block-timestamp/router.js';
import { campaignsRouter } from './campaigns/router.js';
import { chainsRouter } from './chains/router.js';
import { healthRouter } from './health/router.js';
import { opportunitiesRouter } from './opportunities/router.js';
import { tokensRouter } from './tokens/router.js';
import { protocolsRouter } from './protocols/router.js';
import { rootsRouter } from './roots/router.js';
import { rewardsRouter } from './rewards/router.js';
import { nodeRouter } from './node/router.js';
import { templatesRouter } from './templates/router.js';
import { schemasRouter } from './schemas/router.js';
import { creatorsRouter } from './creators/router.js';
import { authRouter } from './auth/router.js';
import { developerRouter } from './developer/router.js';
import { configRouter } from './config/router.js';
import { overridesRouter } from './overrides/router.js';
import { enumsRouter } from './enums/router.js';
import { claimsRouter } from './claims/router.js';
import { usersRouter } from './users/router.js';
import { ratchetRouter } from './ratchet/router.js';
import { campaignListsRouter } from './campaign-lists/router.js';
import { keyValueStoresRouter } from './key-value-stores/router.js';
import { campaignAccessRouter } from './campaign-access/router.js';
import { organizationsRouter } from './organizations/router.js';
import { internalJobsRouter } from './internal-jobs/router.js';
import { internalDependenciesRouter } from './internal-dependencies/router.js';
import { creditsRouter } from './credits/router.js';
import { historicalRouter } from './historical/router.js';
import { diffsRouter } from './diffs/router.js';
import { opportunityCurationRouter } from './opportunities/curation.js';
import { eventsRouter } from './events/router.js';
import { webhooksRouter } from './webhooks/router.js';
import { rewardTotalsRouter } from './reward-totals/router.js';
import { accountingRouter } from './accounting/router.js';
import { pricesRouter } from './prices/router.js';
import { clammRouter } from './clamm/router.js';
import { transactionsRouter } from './transactions/router.js';
import { etlHealthRouter } from './node/etlHealthRouter.js';
import { programsRouter } from './programs/router.js';
import { disputesRouter } from './disputes/router.js';
import { blacklistsRouter } from './blacklists/router.js';
import { referenceDataRouters } from './reference-data/router.js';

import { openApiRouter } from '../openapi/router.js';

/** Mounts every route family at /v4 with the OpenAPI document of them all (Prometheus' /metrics, pages and explorers, and the 405/501 answers: api/app.ts). */
export function createRoutes(deps: ApiDeps): Router {
  const root = new Router();
  const v4 = new Router({ prefix: '/v4' });
  for (const family of [
    // Reference data curation and the audit log (#46): before tokens/chains/…, so `/tokens/count` is no token id.
    ...referenceDataRouters,
    healthRouter,
    chainsRouter,
    blockTimestampRouter,
    campaignAccessRouter,
    campaignsRouter,
    opportunitiesRouter,
    tokensRouter,
    protocolsRouter,
    rootsRouter,
    rewardsRouter,
    nodeRouter,
    templatesRouter,
    schemasRouter,
    creatorsRouter,
    authRouter,
    developerRouter,
    configRouter,
    overridesRouter,
    ratchetRouter,
    enumsRouter,
    claimsRouter,
    usersRouter,
    campaignListsRouter,
    keyValueStoresRouter,
    organizationsRouter,
    internalJobsRouter,
    internalDependenciesRouter,
    creditsRouter,
    historicalRouter,
    diffsRouter,
    opportunityCurationRouter,
    eventsRouter,
    webhooksRouter,
    rewardTotalsRouter,
    accountingRouter,
    pricesRouter,
    clammRouter,
    transactionsRouter,
    etlHealthRouter,
    programsRouter,
    disputesRouter,
    blacklistsRouter,
  ]) {
    v4.use(family(deps).routes());
  }
  v4.use(openApiRouter(() => root).routes());
  // Nested routes are copied into the parent's stack, so the app's one allowedMethods (api/app.ts)
  // sees every matched route: per-family ones would add two functions per family to every
  // request's middleware chain, which @koa/router composes (and koa-compose flattens, in time
  // quadratic in its length) on every request.
  root.use(v4.routes());
  return root;
}
