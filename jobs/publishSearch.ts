import { projectOutbox } from '../indexer/project/projectOutbox.js';
import type { Job } from './control/types.js';
import { jobInfo } from './control/catalog.js';

/** Drains the search outbox into Elasticsearch (also after an Elasticsearch outage). */
export const publishSearch: Job = {
  ...jobInfo('publish'),
  async run(deps) {
    const { published, deleted } = await projectOutbox(deps);
    return { ranges: [], counts: { published, deleted } };
  },
};
