import { expect } from 'chai';
import type { components } from '../../../clients/typescript/src/schema.js';
import { CHAIN_RECORD_SCHEMA, TOKEN_RECORD_SCHEMA } from '../../../domain/documents/recordSchemas.js';
import type { ChainRecord, TokenRecord } from '../../../domain/documents/records.js';
import { chainSchema, tokenSchema } from '../../../api/openapi/records.js';
import type { TokenResponse } from '../../../api/reads/tokens/serialize.js';
import type { Chain as WebChain, Token as WebToken } from '../../../web/explorer/types.js';

/** true when A and B are the same type (not merely assignable one way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/*
 * Issue 47, "one definition per public record": the Token and Chain records are declared once
 * (domain/documents/recordSchemas.ts). These constants only type-check (`tsc -p .`, run by `npm test`)
 * while the documents' type, the serializer's type, the generated client's component (from the
 * served OpenAPI document) and the web's type are that one definition.
 */
const tokenTypes: [
  Same<TokenRecord, TokenResponse>,
  Same<TokenRecord, components['schemas']['Token']>,
  Same<WebToken, components['schemas']['Token']>,
] = [true, true, true];
const chainTypes: [Same<ChainRecord, components['schemas']['Chain']>, Same<WebChain, components['schemas']['Chain']>] =
  [true, true];

describe('one definition per public record (Token, Chain)', () => {
  it('derives the documents, serializer, client and web types from one schema (checked by tsc)', () => {
    expect([...tokenTypes, ...chainTypes]).to.deep.equal([true, true, true, true, true]);
  });

  it('publishes that same schema object as the OpenAPI component', () => {
    expect(tokenSchema).to.equal(TOKEN_RECORD_SCHEMA);
    expect(chainSchema).to.equal(CHAIN_RECORD_SCHEMA);
  });
});
