import { projectOutbox } from '../indexer/projectOutbox.js';
import type { Job } from './types.js';

/** Drains the search outbox into Elasticsearch (also after an Elasticsearch outage). */
export const publishSearch: Job = {
  name: 'publish',
  defaultCron: '*/2 * * * * *',
  description: 'Projects queued campaign and opportunity changes from PostgreSQL into Elasticsearch.',
  async run(deps) {
    const { published, deleted } = await projectOutbox(deps);
    return { ranges: [], counts: { published, deleted } };
  },
};
