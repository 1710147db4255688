/** GET /v4/schemas query: no parameters are accepted. */
export const schemasQuery = { type: 'object', additionalProperties: false, properties: {} } as const;
