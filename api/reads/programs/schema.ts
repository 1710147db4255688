import { fields, type InputOf } from '../../validate.js';

/** A program slug: what opportunities' `programSlugs` hold (the curation labels of PATCH /v4/opportunities/{id}). */
export const programSlug = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^[a-z0-9][a-z0-9_-]*$',
  'x-accepts': 'a lower-case slug: a letter or digit, then letters, digits, - or _ (at most 64)',
} as const;
const programName = { type: 'string', minLength: 1, maxLength: 200 } as const;
const programDescription = { type: 'string', maxLength: 2000 } as const;
const programIcon = { type: 'string', maxLength: 2000 } as const;
/** Opportunity ids as GET /v4/opportunities/{id} takes them (numeric or `chainId-TYPE-identifier`). */
const opportunityIds = {
  type: 'array',
  maxItems: 500,
  uniqueItems: true,
  items: { type: 'string', minLength: 1, maxLength: 300 },
} as const;

/** Most programs a list page embeds members for; a program's members are all embedded (up to MAX_MEMBERS). */
const PROGRAM_PAGE_MAX = 50;

/** GET /v4/programs and /v4/programs/count query: `name` (substring, any case) and `slugs` (comma list). */
export const listProgramsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: fields.page,
    items: { ...fields.items, maximum: PROGRAM_PAGE_MAX },
    name: { type: 'string', minLength: 1, maxLength: 200 },
    slugs: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      pattern: '^[a-z0-9][a-z0-9_-]*(,[a-z0-9][a-z0-9_-]*)*$',
      'x-accepts': 'comma-separated program slugs',
    },
  },
} as const;
export type ListProgramsQuery = InputOf<typeof listProgramsQuery>;

/** Path of the by-id read and the PATCH: a program's id (uuid) or slug. */
export const programParams = {
  type: 'object',
  additionalProperties: false,
  required: ['idOrSlug'],
  properties: {
    idOrSlug: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      pattern: '^[a-z0-9][a-z0-9_-]*$',
      'x-accepts': "a program's id (uuid) or slug",
    },
  },
} as const;

/** POST /v4/programs body (back office): `slug` defaults to one made of `name`; `opportunities` join it. */
export const createProgramBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    slug: programSlug,
    name: programName,
    description: programDescription,
    icon: programIcon,
    opportunities: opportunityIds,
  },
} as const;
export type CreateProgramBody = InputOf<typeof createProgramBody>;

/** PATCH /v4/programs/{idOrSlug} body (back office): fields to replace, opportunities to add and remove. */
export const updateProgramBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    slug: programSlug,
    name: programName,
    description: programDescription,
    icon: programIcon,
    opportunitiesToAdd: opportunityIds,
    opportunitiesToRemove: opportunityIds,
  },
} as const;
export type UpdateProgramBody = InputOf<typeof updateProgramBody>;
