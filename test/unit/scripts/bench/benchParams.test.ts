import { expect } from 'chai';
import { benchIndexShape } from '../../../../scripts/bench/benchParams.js';

describe('bench index shape (ES_SHARDS / ES_REPLICAS for the indices a benchmark creates)', () => {
  const saved = { shards: process.env['ES_SHARDS'], replicas: process.env['ES_REPLICAS'] };
  const set = (shards?: string, replicas?: string) => {
    if (shards === undefined) delete process.env['ES_SHARDS'];
    else process.env['ES_SHARDS'] = shards;
    if (replicas === undefined) delete process.env['ES_REPLICAS'];
    else process.env['ES_REPLICAS'] = replicas;
  };
  afterEach(() => set(saved.shards, saved.replicas));

  it('keeps the mapping files’ shape when neither is set', () => {
    set();
    expect(benchIndexShape()).to.equal(undefined);
  });

  it('takes either or both, defaulting the other as es:setup does', () => {
    set('3', undefined);
    expect(benchIndexShape()).to.deep.equal({ shards: 3, replicas: 0 });
    set(undefined, '1');
    expect(benchIndexShape()).to.deep.equal({ shards: 1, replicas: 1 });
  });

  it('stops on a value that is not a count, naming the variable', () => {
    set('0', '1');
    expect(() => benchIndexShape()).to.throw(/ES_SHARDS/);
    set('2', '-1');
    expect(() => benchIndexShape()).to.throw(/ES_REPLICAS/);
    set('two', undefined);
    expect(() => benchIndexShape()).to.throw(/ES_SHARDS/);
  });
});
