/**
 * The API's records as the explorer reads them: the generated client's types (clients/typescript,
 * `npm run client:generate` from GET /v4/openapi.json), so the web has no copy of a record to drift.
 */
import type { components, paths } from '../../clients/typescript/src/schema.js';

type Schemas = components['schemas'];
/** The JSON body of a path's 200 answer to GET. */
type GetOk<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer B } } } };
}
  ? B
  : never;

export type Token = Schemas['Token'];
export type Chain = Schemas['Chain'];
export type Protocol = Schemas['Protocol'];
/** A program as GET /v4/programs serves it. */
export type Program = Schemas['Program'];
export type Opportunity = Schemas['Opportunity'];
/** A program an opportunity belongs to (`activePrograms`; their slugs are what `programSlugs` takes). */
export type ActiveProgram = NonNullable<Opportunity['activePrograms']>[number];
export type Campaign = Schemas['Campaign'];
/** One member of a campaign's family (GET /v4/campaigns/{id}/linked). */
export type LinkedCampaign = GetOk<'/v4/campaigns/{id}/linked'>[number];
/** A campaign's series (GET /v4/campaigns/{id}/metrics). */
export type CampaignMetrics = GetOk<'/v4/campaigns/{id}/metrics'>;
