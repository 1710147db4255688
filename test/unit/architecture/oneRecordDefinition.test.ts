import { expect } from 'chai';
import type { components } from '../../../clients/typescript/src/schema.js';
import {
  CAMPAIGN_RECORD_SCHEMA,
  CHAIN_RECORD_SCHEMA,
  LIGHT_OPPORTUNITY_RECORD_SCHEMA,
  OPPORTUNITY_RECORD_SCHEMA,
  PROGRAM_RECORD_SCHEMA,
  PROTOCOL_RECORD_SCHEMA,
  TOKEN_RECORD_SCHEMA,
} from '../../../domain/documents/recordSchemas.js';
import type {
  CampaignRecord,
  ChainRecord,
  LightOpportunityRecord,
  OpportunityRecord,
  ProgramRecord,
  ProtocolRecord,
  TokenRecord,
} from '../../../domain/documents/records.js';
import {
  campaignSchema,
  chainSchema,
  lightOpportunitySchema,
  opportunitySchema,
  programSchema,
  protocolSchema,
  tokenSchema,
} from '../../../api/openapi/records.js';
import type { LIGHT_OPPORTUNITY_FIELDS } from '../../../api/reads/campaigns/query.js';
import type { serializeCampaign, serializeLightOpportunity } from '../../../api/reads/campaigns/serialize.js';
import type { serializeOpportunity } from '../../../api/reads/opportunities/serialize.js';
import type { serializeProgram } from '../../../api/reads/programs/serialize.js';
import type { ProtocolResponse } from '../../../api/reads/protocols/serialize.js';
import type { TokenResponse } from '../../../api/reads/tokens/serialize.js';
import type {
  Campaign as WebCampaign,
  Chain as WebChain,
  Opportunity as WebOpportunity,
  Program as WebProgram,
  Protocol as WebProtocol,
  Token as WebToken,
} from '../../../web/explorer/types.js';

/** true when A and B are the same type (not merely assignable one way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

type Schemas = components['schemas'];

/*
 * Issue 47, "one definition per public record": the Token, Chain, Campaign, Opportunity, Protocol, Program and
 * LightOpportunity records are declared once (domain/documents/recordSchemas.ts). These constants only
 * type-check (`tsc -p .`, run by `npm test`) while the serializers' types, the generated client's
 * components (from the served OpenAPI document) and the web's types are that one definition.
 */
const tokenTypes: [
  Same<TokenRecord, TokenResponse>,
  Same<TokenRecord, Schemas['Token']>,
  Same<WebToken, Schemas['Token']>,
] = [true, true, true];
const chainTypes: [Same<ChainRecord, Schemas['Chain']>, Same<WebChain, Schemas['Chain']>] = [true, true];
const campaignTypes: [
  Same<CampaignRecord, ReturnType<typeof serializeCampaign>>,
  Same<CampaignRecord, Schemas['Campaign']>,
  Same<WebCampaign, Schemas['Campaign']>,
] = [true, true, true];
const opportunityTypes: [
  Same<OpportunityRecord, ReturnType<typeof serializeOpportunity>>,
  Same<OpportunityRecord, Schemas['Opportunity']>,
  Same<WebOpportunity, Schemas['Opportunity']>,
] = [true, true, true];
const protocolTypes: [
  Same<ProtocolRecord, ProtocolResponse>,
  Same<ProtocolRecord, Schemas['Protocol']>,
  Same<WebProtocol, Schemas['Protocol']>,
] = [true, true, true];
const programTypes: [
  Same<ProgramRecord, ReturnType<typeof serializeProgram>>,
  Same<ProgramRecord, Schemas['Program']>,
  Same<WebProgram, Schemas['Program']>,
] = [true, true, true];
const lightOpportunityTypes: [
  Same<LightOpportunityRecord, ReturnType<typeof serializeLightOpportunity>>,
  Same<LightOpportunityRecord, Schemas['LightOpportunity']>,
  // The fields a campaign list reads of the opportunity documents are the record's, every one.
  Same<(typeof LIGHT_OPPORTUNITY_FIELDS)[number], keyof LightOpportunityRecord>,
] = [true, true, true];

describe('one definition per public record (Token, Chain, Campaign, Opportunity, Protocol, Program, LightOpportunity)', () => {
  it('derives the serializers, client and web types from one schema (checked by tsc)', () => {
    const checks = [
      ...tokenTypes,
      ...chainTypes,
      ...campaignTypes,
      ...opportunityTypes,
      ...protocolTypes,
      ...programTypes,
      ...lightOpportunityTypes,
    ];
    expect(checks).to.have.length(20);
    expect(checks.every((same) => same)).to.equal(true);
  });

  it('publishes that same schema object as the OpenAPI component', () => {
    expect(tokenSchema).to.equal(TOKEN_RECORD_SCHEMA);
    expect(chainSchema).to.equal(CHAIN_RECORD_SCHEMA);
    expect(campaignSchema).to.equal(CAMPAIGN_RECORD_SCHEMA);
    expect(opportunitySchema).to.equal(OPPORTUNITY_RECORD_SCHEMA);
    expect(protocolSchema).to.equal(PROTOCOL_RECORD_SCHEMA);
    expect(programSchema).to.equal(PROGRAM_RECORD_SCHEMA);
    expect(lightOpportunitySchema).to.equal(LIGHT_OPPORTUNITY_RECORD_SCHEMA);
  });

  it('nests the records themselves, so the OpenAPI document refers to their components', () => {
    expect(CAMPAIGN_RECORD_SCHEMA.properties.rewardToken).to.equal(TOKEN_RECORD_SCHEMA);
    expect(CAMPAIGN_RECORD_SCHEMA.properties.chain.anyOf[0]).to.equal(CHAIN_RECORD_SCHEMA);
    expect(OPPORTUNITY_RECORD_SCHEMA.properties.tokens.items).to.equal(TOKEN_RECORD_SCHEMA);
    expect(OPPORTUNITY_RECORD_SCHEMA.properties.chain.anyOf[0]).to.equal(CHAIN_RECORD_SCHEMA);
    expect(OPPORTUNITY_RECORD_SCHEMA.properties.protocol.anyOf[0]).to.equal(PROTOCOL_RECORD_SCHEMA);
    expect(PROGRAM_RECORD_SCHEMA.properties.opportunities.items).to.equal(OPPORTUNITY_RECORD_SCHEMA);
  });
});
