import type {
  CAMPAIGN_RECORD_SCHEMA,
  CHAIN_RECORD_SCHEMA,
  LIGHT_OPPORTUNITY_RECORD_SCHEMA,
  OPPORTUNITY_RECORD_SCHEMA,
  PROGRAM_RECORD_SCHEMA,
  PROTOCOL_RECORD_SCHEMA,
  RecordOf,
  TOKEN_RECORD_SCHEMA,
} from './recordSchemas.js';

/** A chains table row with its live figures (api reads it, toChainRecord serves it). */
export type ChainRow = {
  id: number;
  name: string;
  icon: string;
  explorers: { type: string; url: string }[];
  isTest: boolean;
  endOfDisputePeriod: number;
  lastClaimsOnchainFetchAt: Date | null;
  liveCampaigns: number;
};

/** Public Chain record: its one definition is CHAIN_RECORD_SCHEMA (domain/documents/recordSchemas.ts). */
export type ChainRecord = RecordOf<typeof CHAIN_RECORD_SCHEMA>;

/** Public Token record: its one definition is TOKEN_RECORD_SCHEMA (domain/documents/recordSchemas.ts). */
export type TokenRecord = RecordOf<typeof TOKEN_RECORD_SCHEMA>;

/** Public Campaign record: its one definition is CAMPAIGN_RECORD_SCHEMA (domain/documents/recordSchemas.ts). */
export type CampaignRecord = RecordOf<typeof CAMPAIGN_RECORD_SCHEMA>;

/** Public Opportunity record: its one definition is OPPORTUNITY_RECORD_SCHEMA (domain/documents/recordSchemas.ts). */
export type OpportunityRecord = RecordOf<typeof OPPORTUNITY_RECORD_SCHEMA>;

/** Public Protocol record: its one definition is PROTOCOL_RECORD_SCHEMA (domain/documents/recordSchemas.ts). */
export type ProtocolRecord = RecordOf<typeof PROTOCOL_RECORD_SCHEMA>;

/** Public Program record: its one definition is PROGRAM_RECORD_SCHEMA (domain/documents/recordSchemas.ts). */
export type ProgramRecord = RecordOf<typeof PROGRAM_RECORD_SCHEMA>;

/** A campaign's light opportunity: its one definition is LIGHT_OPPORTUNITY_RECORD_SCHEMA (domain/documents/recordSchemas.ts). */
export type LightOpportunityRecord = RecordOf<typeof LIGHT_OPPORTUNITY_RECORD_SCHEMA>;

export function toChainRecord(row: ChainRow): ChainRecord {
  return {
    id: row.id,
    name: row.name,
    icon: row.icon,
    liveCampaigns: row.liveCampaigns,
    endOfDisputePeriod: row.endOfDisputePeriod,
    explorers: row.explorers.map((e) => ({ type: e.type, url: e.url, chainId: row.id })),
    lastClaimsOnchainFetchTimestamp: row.lastClaimsOnchainFetchAt
      ? String(Math.floor(row.lastClaimsOnchainFetchAt.getTime() / 1000))
      : null,
  };
}
