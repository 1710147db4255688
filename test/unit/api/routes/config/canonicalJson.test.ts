import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { canonicalJson, hashConfig } from '../../../../../api/routes/config/canonicalJson.js';

describe('canonicalJson / hashConfig', () => {
  it('sorts keys at every depth and drops whitespace, keeping array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).to.equal(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives the same hash whatever the key order or formatting of the input', () => {
    const a = JSON.parse(
      '{ "rewardToken": "0xabc", "amount": "100", "campaignData": { "url": "", "targetToken": "0x1" } }',
    );
    const b = JSON.parse('{"campaignData":{"targetToken":"0x1","url":""},"amount":"100","rewardToken":"0xabc"}');
    expect(hashConfig(a)).to.equal(hashConfig(b));
    expect(hashConfig({ ...a, amount: '101' })).to.not.equal(hashConfig(a));
  });

  it('is 0x + SHA-256 hex of the canonical text', () => {
    const expected = `0x${createHash('sha256').update('{"a":1,"b":[true,null]}').digest('hex')}`;
    expect(hashConfig({ b: [true, null], a: 1 }))
      .to.equal(expected)
      .and.match(/^0x[0-9a-f]{64}$/);
  });

  it('drops undefined properties and writes non-finite numbers as null, like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: Number.NaN, c: [undefined] })).to.equal('{"b":null,"c":[null]}');
  });

  it('escapes keys and strings as JSON does', () => {
    expect(canonicalJson({ 'k"é': 'line\nbreak' })).to.equal('{"k\\"é":"line\\nbreak"}');
  });
});
