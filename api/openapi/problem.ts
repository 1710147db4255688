import { STATUS_TITLES } from '../errors.js';
import { component } from './components.js';

/** RFC 9457 problem body as written by api/middleware/errorHandler.ts. */
export const problemSchema = component('Problem', {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string', description: 'URI reference naming the problem kind, e.g. /problems/validation-failed' },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'The request path' },
    code: {
      type: 'string',
      description: 'Machine-readable problem code, e.g. VALIDATION_FAILED, NOT_FOUND, UNAUTHORIZED',
    },
    requestId: { type: 'string' },
    errors: {
      type: 'array',
      description: 'One entry per bad field (400 validation problems)',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
});

/** An OpenAPI response object for a problem status. */
export function problemResponse(status: number, description = STATUS_TITLES[status] ?? 'Error') {
  return { description, content: { 'application/problem+json': { schema: problemSchema } } };
}
