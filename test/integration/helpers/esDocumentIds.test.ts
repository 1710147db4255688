import { expect } from 'chai';
import { createEsClient } from '../../../internal/es.js';
import { allDocumentIds, expectSameIds } from '../../helpers/esDocumentIds.js';
import { TEST_ES_URL, uniqueIndexPrefix } from '../../helpers/testConfig.js';

describe('test helper allDocumentIds: the consistency checks compare whole sets at any size (issue 48)', function () {
  const es = createEsClient({ node: TEST_ES_URL, requestTimeoutMs: 30_000 });
  const index = `${uniqueIndexPrefix()}-ids`;
  const DOCUMENTS = 12_345; // past one page (5,000) and past a search's default window of 10,000

  before(async function () {
    await es.indices.create({ index, settings: { number_of_shards: 2, number_of_replicas: 0 } });
    const operations = Array.from({ length: DOCUMENTS }, (_, i) => [{ index: { _index: index, _id: `d${i}` } }, { i }]);
    const res = await es.bulk({ operations: operations.flat(), refresh: true });
    expect(res.errors).to.equal(false);
  });

  after(async function () {
    await es.indices.delete({ index, ignore_unavailable: true });
    await es.close();
  });

  it('reads every id of an index larger than any one search answers', async function () {
    const capped = await es.search({ index, size: 1000, _source: false });
    expect(capped.hits.hits).to.have.length(1000); // what the chaos check compared before
    const ids = await allDocumentIds(es, index);
    expect(ids).to.have.length(DOCUMENTS);
    expect(new Set(ids).size).to.equal(DOCUMENTS);
  });

  it('names what is missing and extra, and counts what it compared', async function () {
    const ids = await allDocumentIds(es, index);
    const truth = Array.from({ length: DOCUMENTS }, (_, i) => `d${i}`);
    expect(expectSameIds('documents', ids, truth)).to.equal(DOCUMENTS);
    expect(() => expectSameIds('documents', ids.slice(1), [...truth, 'x'])).to.throw(/missing 2 .*extra 0/);
  });
});
