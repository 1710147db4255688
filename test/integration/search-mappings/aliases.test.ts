import { expect } from 'chai';
import { createEsClient, type EsClient } from '../../../internal/es.js';
import { createLogger } from '../../../internal/logger.js';
import { deleteIndices, ensureIndices, type IndexFamily } from '../../../search-mappings/aliases.js';
import { TEST_ES_URL, uniqueIndexPrefix } from '../../helpers/testConfig.js';

describe('search-mappings/aliases: index shape (ES_SHARDS, ES_REPLICAS)', () => {
  let es: EsClient;
  const prefix = uniqueIndexPrefix();
  const logger = createLogger({ level: 'silent', name: 'test' });
  const shapeOf = async (index: string) => {
    const res = await es.indices.getSettings({ index });
    const s = Object.values(res)[0]!.settings!.index!;
    return { shards: Number(s.number_of_shards), replicas: Number(s.number_of_replicas) };
  };

  before(() => {
    es = createEsClient({ node: TEST_ES_URL, requestTimeoutMs: 30_000 });
  });
  after(async () => {
    await deleteIndices({ es, prefix });
    await es.close();
  });

  it('creates every family with the configured shards and replicas, then applies a new replica count to the live indices', async () => {
    const created = await ensureIndices({ es, prefix, logger, shape: { shards: 2, replicas: 0 } });
    for (const family of Object.keys(created) as IndexFamily[])
      expect(await shapeOf(created[family]), family).to.deep.equal({ shards: 2, replicas: 0 });
    // A single node leaves the replica unassigned (yellow), but the setting is what es:setup must apply.
    const again = await ensureIndices({ es, prefix, logger, shape: { shards: 2, replicas: 1 } });
    expect(again).to.deep.equal(created);
    for (const family of Object.keys(created) as IndexFamily[])
      expect(await shapeOf(created[family]), family).to.deep.equal({ shards: 2, replicas: 1 });
  });
});
