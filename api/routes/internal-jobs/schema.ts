import { JOB_NAMES } from '../../../domain/jobs/catalog.js';

/** Path `name`: one of the registered jobs (anything else is a 400 naming `name`). */
export const jobNameParams = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', enum: [...JOB_NAMES] } },
} as const;

/** Query of the jobs listing: how many recent runs per job. */
export const jobsListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { runs: { type: 'integer', minimum: 1, maximum: 50, default: 5 } },
} as const;

/**
 * Body of PUT /internal/jobs/{name}/schedule: a node-cron expression (5 or 6 fields), or null to
 * go back to JOB_<NAME>_CRON or the job's default. Validity beyond the shape is node-cron's.
 */
export const scheduleBody = {
  type: 'object',
  additionalProperties: false,
  required: ['cron'],
  properties: { cron: { type: ['string', 'null'], minLength: 1, maxLength: 200 } },
} as const;
