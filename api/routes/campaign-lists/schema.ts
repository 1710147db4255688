import { fields } from '../../validate.js';

/** Most campaign ids one list holds. */
export const MAX_IDS = 10_000;
const NAME = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9 _.-]+$',
  'x-accepts': 'a list name of letters, digits, spaces, _, . and -',
} as const;
const IDS = { type: 'array', maxItems: MAX_IDS, items: { type: 'string', pattern: '^[0-9]{1,20}$' } } as const;
const ADDRESS = fields.address;

/** No query parameters are accepted. */
export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;

/** Path of GET /campaign-lists/{owner}. */
export const ownerParams = { type: 'object', required: ['owner'], properties: { owner: ADDRESS } } as const;

/** Path of GET /campaign-lists/{owner}/{name}. */
export const ownerListParams = {
  type: 'object',
  required: ['owner', 'name'],
  properties: { owner: ADDRESS, name: NAME },
} as const;

/** Path of PATCH and DELETE /campaign-lists/{name} (the caller's own list). */
export const nameParams = { type: 'object', required: ['name'], properties: { name: NAME } } as const;

/** POST /campaign-lists body: a name and the campaign ids (default none). */
export const createListBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: NAME, campaignIds: { ...IDS, default: [] } },
} as const;

/** PATCH /campaign-lists/{name} body: a new name and/or ids to add and remove (default none); at least one property. */
export const updateListBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { name: NAME, add: { ...IDS, default: [] }, remove: { ...IDS, default: [] } },
} as const;
