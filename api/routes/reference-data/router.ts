import { auditRouter } from './audit.js';
import { chainCurationRouter } from './chains.js';
import { referenceCountsRouter } from './counts.js';
import { creatorCurationRouter } from './creators.js';
import { protocolCurationRouter } from './protocols.js';
import { templateCurationRouter } from './templates.js';
import { tokenCurationRouter } from './tokens.js';

/**
 * Reference data an operator curates (issue #46), and the audit log of every back-office write. Writes are back office
 * only, audit-logged with before/after in their transaction, and republish the documents they change before answering
 * (writeAndPublish.ts). What jobs write (tokens from chain reads and the chain config, chains from the chain config)
 * never overwrites a curated field: the row lists them (`curated_fields`, sql/migrations/2026_12_11_40_…), the jobs'
 * statements skip them, and reads need nothing else. Protocols are a registry in code: their corrections live in
 * protocol_overrides, the protocols the back office adds in protocols; reads and the projector resolve ids against
 * both (protocols.ts). Templates: the built-in ones are code, an operator's live in campaign_templates (templates.ts). Creators are written by nothing but the back office and the
 * quick start's seed. Mounted (api/routes/index.ts) before the families' own routers, so `/tokens/count` is not taken for a token id.
 */
export const referenceDataRouters = [
  referenceCountsRouter,
  tokenCurationRouter,
  chainCurationRouter,
  creatorCurationRouter,
  protocolCurationRouter,
  templateCurationRouter,
  auditRouter,
] as const;
