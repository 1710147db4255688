/** POST /v4/organizations body: a name of 1 to 128 characters, not only blanks. */
export const createOrganizationBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 128, pattern: '\\S' } },
} as const;

/** GET /v4/organizations query: no parameters are accepted. */
export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;
