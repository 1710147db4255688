import { fields } from '../../validate.js';
import { addressField, chainIdListField } from '../../reads/users/params.js';

const bytes32 = fields.bytes32;

/** GET /v4/claims query (docs/api-behaviour.md#claims). */
export const listClaimsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    chainId: fields.chainId,
    chainIds: chainIdListField,
    recipient: addressField,
    campaignId: bytes32,
    token: addressField,
    root: bytes32,
    page: fields.page,
    items: fields.items,
  },
} as const;

/** Query of /v4/claims/history/{address}, /latest and /status. */
export const chainIdsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { chainIds: chainIdListField, page: fields.page, items: { ...fields.items, default: 100 } },
} as const;

/** Path of /v4/claims/history/{address}. */
export const historyParams = {
  type: 'object',
  additionalProperties: true,
  required: ['address'],
  properties: { address: addressField },
} as const;

/** GET /v4/claims/count query: one chain, required. */
export const countQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId },
} as const;
