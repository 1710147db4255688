import { component } from './components.js';
import {
  CAMPAIGN_RECORD_SCHEMA,
  CHAIN_RECORD_SCHEMA,
  LIGHT_OPPORTUNITY_RECORD_SCHEMA,
  OPPORTUNITY_RECORD_SCHEMA,
  PROGRAM_RECORD_SCHEMA,
  PROTOCOL_RECORD_SCHEMA,
  TOKEN_RECORD_SCHEMA,
} from '../../domain/documents/recordSchemas.js';
import type { Schema } from '../validate.js';
import { nullable } from './schemaHelpers.js';

/** Chain record: the `Chain` component of the API contract, defined once in domain (CHAIN_RECORD_SCHEMA). */
export const chainSchema = component('Chain', CHAIN_RECORD_SCHEMA as Schema);

/** Token record: the `Token` component of the API contract, defined once in domain (TOKEN_RECORD_SCHEMA). */
export const tokenSchema = component('Token', TOKEN_RECORD_SCHEMA as Schema);

/** Campaign record: the `Campaign` component of the API contract, defined once in domain (CAMPAIGN_RECORD_SCHEMA). */
export const campaignSchema = component('Campaign', CAMPAIGN_RECORD_SCHEMA as Schema);

/**
 * The light opportunity a campaign list attaches under `opportunity`: the `LightOpportunity` component,
 * defined once in domain (LIGHT_OPPORTUNITY_RECORD_SCHEMA).
 */
export const lightOpportunitySchema = component('LightOpportunity', LIGHT_OPPORTUNITY_RECORD_SCHEMA as Schema);

/** A campaign of a list or search response, with its light opportunity. */
export const campaignWithOpportunitySchema = component('CampaignWithOpportunity', {
  allOf: [
    campaignSchema,
    {
      type: 'object',
      required: ['opportunity', 'Opportunity'],
      properties: {
        opportunity: nullable(lightOpportunitySchema),
        Opportunity: {
          ...nullable(lightOpportunitySchema),
          deprecated: true,
          description: 'The same object as `opportunity`, under the name the hosted service used; read `opportunity`.',
        },
      },
    },
  ],
});

/** Protocol record: the `Protocol` component, the `protocol` of an Opportunity record, defined once in domain (PROTOCOL_RECORD_SCHEMA). */
export const protocolSchema = component('Protocol', PROTOCOL_RECORD_SCHEMA as Schema);

/** Opportunity record: the `Opportunity` component of the API contract, defined once in domain (OPPORTUNITY_RECORD_SCHEMA). */
export const opportunitySchema = component('Opportunity', OPPORTUNITY_RECORD_SCHEMA as Schema);

/** Program record: the `Program` component of the API contract, defined once in domain (PROGRAM_RECORD_SCHEMA). */
export const programSchema = component('Program', PROGRAM_RECORD_SCHEMA as Schema);
