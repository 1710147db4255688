import { expect } from 'chai';
import { boundedMemo } from '../../../internal/boundedMemo.js';

describe('internal/boundedMemo', () => {
  it('computes each key once while it is remembered, undefined values included', () => {
    const calls: string[] = [];
    const f = boundedMemo(
      (k: string) => {
        calls.push(k);
        return k === 'none' ? undefined : k.length;
      },
      (k) => k,
    );
    expect([f('ab'), f('ab'), f('none'), f('none'), f('abc')]).to.deep.equal([2, 2, undefined, undefined, 3]);
    expect(calls).to.deep.equal(['ab', 'none', 'abc']);
  });

  it('forgets everything once full, then remembers again', () => {
    const calls: string[] = [];
    const f = boundedMemo(
      (k: string) => (calls.push(k), k),
      (k) => k,
      2,
    );
    f('a');
    f('b');
    f('c'); // full at 2: memory dropped, then c remembered
    f('c');
    f('a');
    expect(calls).to.deep.equal(['a', 'b', 'c', 'a']);
  });
});
