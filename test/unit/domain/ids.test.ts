import { expect } from 'chai';
import { keccak256, stringToBytes } from 'viem';
import { campaignDbId, numericHashId, opportunityDbId, tokenDbId } from '../../../domain/ids.js';

describe('domain/ids', () => {
  describe('numericHashId', () => {
    it('is the decimal form of the first 8 bytes of keccak256(key)', () => {
      // keccak256('abc') = 0x4e03657aea45a94f…
      expect(numericHashId('abc')).to.equal(BigInt('0x4e03657aea45a94f').toString());
      expect(numericHashId('abc')).to.equal(BigInt(keccak256(stringToBytes('abc')).slice(0, 18)).toString());
    });

    it('is deterministic', () => {
      expect(numericHashId('31337-0xabc')).to.equal(numericHashId('31337-0xabc'));
    });

    it('is a string of 1 to 20 digits with no leading zero', () => {
      for (let i = 0; i < 200; i++) expect(numericHashId(`key-${i}`)).to.match(/^(0|[1-9]\d{0,19})$/);
    });

    it('differs by key', () => {
      const ids = new Set(Array.from({ length: 200 }, (_, i) => numericHashId(`key-${i}`)));
      expect(ids.size).to.equal(200);
    });
  });

  describe('campaignDbId', () => {
    const campaignId = `0x${'ab'.repeat(32)}`;

    it('ignores the case of the on-chain campaign id', () => {
      expect(campaignDbId(1, campaignId.toUpperCase().replace('0X', '0x'))).to.equal(campaignDbId(1, campaignId));
    });

    it('differs by distribution chain', () => {
      expect(campaignDbId(1, campaignId)).not.to.equal(campaignDbId(2, campaignId));
    });

    it('hashes `${chainId}-${campaignId}`', () => {
      expect(campaignDbId(31337, campaignId)).to.equal(numericHashId(`31337-${campaignId}`));
      expect(campaignDbId(31337, campaignId)).to.equal('2536619999332751661');
    });
  });

  describe('tokenDbId and opportunityDbId', () => {
    it('ignore the case of the address or identifier', () => {
      expect(tokenDbId(1, '0xABCDEF0000000000000000000000000000000001')).to.equal(
        tokenDbId(1, '0xabcdef0000000000000000000000000000000001'),
      );
      expect(opportunityDbId(1, 'ERC20', '0xABCDEF0000000000000000000000000000000001')).to.equal(
        opportunityDbId(1, 'ERC20', '0xabcdef0000000000000000000000000000000001'),
      );
    });

    it('keep the opportunity type in the key', () => {
      expect(opportunityDbId(1, 'ERC20', '0x01')).not.to.equal(opportunityDbId(1, 'CLAMM', '0x01'));
    });
  });
});
