import { expect } from 'chai';
import { jsonRpc } from '../../../contracts/devnet.js';
import { indexNames } from '../../../internal/es.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

const count = async (demo: ReferenceDemo, table: string) =>
  Number((await demo.h.deps.pg.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
const documents = async (demo: ReferenceDemo) =>
  (await demo.h.deps.es.count({ index: indexNames(demo.h.config.esIndexPrefix, 'opportunities').read })).count;

describe('reference demo built once per run and cloned per suite (template database, copied documents, seeded devnet snapshot) (issue 47)', function () {
  const open: ReferenceDemo[] = [];
  after(async () => void (await Promise.allSettled(open.map((d) => d.close()))));

  it('a second demo is the first one as built, whatever the first suite wrote to its database, indices, chain and prices', async function () {
    const first = await createReferenceDemo();
    open.push(first);
    const tokens = await count(first, 'tokens');
    const opportunities = await documents(first);
    const head = await jsonRpc<string>(first.h.chains[0]!.devnet.rpcUrl, 'eth_blockNumber');
    expect(tokens).to.be.greaterThan(0);
    expect(opportunities).to.be.greaterThan(0);
    expect(first.api.prices.size).to.be.greaterThan(0);

    await first.h.deps.pg.query('TRUNCATE tokens CASCADE');
    const index = indexNames(first.h.config.esIndexPrefix, 'opportunities').read;
    const hits = (await first.h.deps.es.search({ index, size: 10_000, _source: false })).hits.hits;
    await first.h.deps.es.bulk({
      operations: hits.map((hit) => ({ delete: { _index: hit._index, _id: hit._id! } })),
      refresh: true,
    });
    await jsonRpc(first.h.chains[0]!.devnet.rpcUrl, 'hardhat_mine', ['0x10']);
    first.api.prices.clear();
    expect(await count(first, 'tokens')).to.equal(0);
    expect(await documents(first)).to.equal(0);
    await first.close();
    open.pop();

    const second = await createReferenceDemo();
    open.push(second);
    expect(second.h.config.esIndexPrefix).to.not.equal(first.h.config.esIndexPrefix);
    expect(await count(second, 'tokens')).to.equal(tokens);
    expect(await documents(second)).to.equal(opportunities);
    expect(await jsonRpc<string>(second.h.chains[0]!.devnet.rpcUrl, 'eth_blockNumber')).to.equal(head);
    expect(second.api.prices.size).to.be.greaterThan(0);
    expect(second.seeded).to.deep.equal(first.seeded);
    const res = await second.h.request().get('/v4/tokens').query({ chainId: 31337 });
    expect(res.status).to.equal(200);
    expect(res.body).to.have.length.greaterThan(0);
  });
});
