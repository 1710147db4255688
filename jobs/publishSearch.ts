import { projectOutbox } from '../domain/projection/projectOutbox.js';
import type { Job } from '../domain/jobs/types.js';
import { jobInfo } from '../domain/jobs/catalog.js';

/** Drains the search outbox into Elasticsearch (also after an Elasticsearch outage). */
export const publishSearch: Job = {
  ...jobInfo('publish'),
  async run(deps) {
    const { published, deleted } = await projectOutbox(deps);
    return { ranges: [], counts: { published, deleted } };
  },
};
