import { expect } from 'chai';
import { encodeAbiParameters, encodeEventTopics, parseEventLogs, toEventSelector } from 'viem';
import type { Hex, Log } from 'viem';
import { distributorAbi } from '../../../../domain/abis/distributor.js';
import { DecodeError } from '../../../../indexer/decode/campaignEvents.js';
import {
  blockHashesOf,
  decodeClaimedLog,
  decodeRootLifecycleLog,
  type ClaimedLog,
  type RootLifecycleLog,
} from '../../../../indexer/decode/distributorEvents.js';

const BLOCK_HASH: Hex = `0x${'AB'.repeat(32)}`;
const TX_HASH: Hex = `0x${'CD'.repeat(32)}`;

/** A raw log as a node returns it, decoded with viem and our ABI (as getLogs does). */
function rawLog(topics: Hex[], data: Hex, logIndex = 3): Log {
  return {
    address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    topics: topics as [Hex, ...Hex[]],
    data,
    blockNumber: 42n,
    blockHash: BLOCK_HASH,
    transactionHash: TX_HASH,
    logIndex,
    transactionIndex: 0,
    removed: false,
  };
}
const decoded = (log: Log) => parseEventLogs({ abi: distributorAbi, logs: [log], strict: true })[0]!;

describe('indexer/decode/distributorEvents', () => {
  it('uses the documented topic0 of each indexed event', () => {
    const topic = (name: string) => toEventSelector(distributorAbi.find((e) => e.name === name)!);
    expect(topic('TreeUpdated')).to.equal('0x23aa2e4f757a7bd974085d3e11439a843b137b30905e3ffd51b2097c34aef62e');
    expect(topic('Claimed')).to.equal('0xf7a40077ff7a04c7e61f6f26fb13774259ddf1b6bce9ecf26a8276cdd3992683');
    expect(topic('Revoked')).to.equal('0x44825a4b2df8acb19ce4e1afba9aa850c8b65cdb7942e2078f27d0b0960efee6');
    expect(topic('Disputed')).to.equal('0x5eca00b8ed745eee61451333090bfa56aa1f2a9e696a2aebe5f1f5b6cef6f2ff');
    expect(topic('DisputeResolved')).to.equal('0x8015c5005d9ad5d85ca80d3f894f08e0159277704c54166e5cff108800fa80cd');
  });

  describe('decodeRootLifecycleLog', () => {
    it('decodes TreeUpdated with lower-case root, ipfs hash and position', () => {
      const root: Hex = `0x${'1F'.repeat(32)}`;
      const ipfs: Hex = `0x${'2E'.repeat(32)}`;
      const log = rawLog(
        encodeEventTopics({ abi: distributorAbi, eventName: 'TreeUpdated' }) as Hex[],
        encodeAbiParameters(
          [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint48' }],
          [root, ipfs, 1_700_006_400],
        ),
      );
      expect(decodeRootLifecycleLog(31337, decoded(log) as RootLifecycleLog)).to.deep.equal({
        chainId: 31337,
        blockNumber: 42,
        blockHash: BLOCK_HASH.toLowerCase(),
        txHash: TX_HASH.toLowerCase(),
        logIndex: 3,
        kind: 'tree_updated',
        root: root.toLowerCase(),
        ipfsHash: ipfs.toLowerCase(),
        endOfDisputePeriod: 1_700_006_400,
      });
    });

    it('decodes Revoked, Disputed and DisputeResolved', () => {
      const revoked = rawLog(encodeEventTopics({ abi: distributorAbi, eventName: 'Revoked' }) as Hex[], '0x');
      const disputed = rawLog(
        encodeEventTopics({ abi: distributorAbi, eventName: 'Disputed' }) as Hex[],
        encodeAbiParameters([{ type: 'string' }], ['wrong amounts']),
      );
      const resolved = rawLog(
        encodeEventTopics({ abi: distributorAbi, eventName: 'DisputeResolved' }) as Hex[],
        encodeAbiParameters([{ type: 'bool' }], [true]),
      );
      expect(decodeRootLifecycleLog(1, decoded(revoked) as RootLifecycleLog)).to.include({
        kind: 'revoked',
        blockNumber: 42,
      });
      expect(decodeRootLifecycleLog(1, decoded(disputed) as RootLifecycleLog)).to.include({
        kind: 'disputed',
        reason: 'wrong amounts',
      });
      expect(decodeRootLifecycleLog(1, decoded(resolved) as RootLifecycleLog)).to.include({
        kind: 'dispute_resolved',
        valid: true,
      });
    });

    it('refuses a pending log (no block position) with a DecodeError', () => {
      const log = {
        ...decoded(rawLog(encodeEventTopics({ abi: distributorAbi, eventName: 'Revoked' }) as Hex[], '0x')),
        blockNumber: null,
      };
      expect(() => decodeRootLifecycleLog(1, log as RootLifecycleLog)).to.throw(
        DecodeError,
        /Revoked log without block position on chain 1/,
      );
    });
  });

  describe('decodeClaimedLog', () => {
    it('decodes the indexed user and token (lower-cased) and the delta amount', () => {
      const user = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
      const token = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9';
      const log = rawLog(
        encodeEventTopics({ abi: distributorAbi, eventName: 'Claimed', args: { user, token } }) as Hex[],
        encodeAbiParameters([{ type: 'uint256' }], [10n ** 30n]),
      );
      expect(decodeClaimedLog(31337, decoded(log) as ClaimedLog)).to.deep.equal({
        chainId: 31337,
        blockNumber: 42,
        blockHash: BLOCK_HASH.toLowerCase(),
        txHash: TX_HASH.toLowerCase(),
        logIndex: 3,
        recipient: user.toLowerCase(),
        token: token.toLowerCase(),
        amount: 10n ** 30n,
      });
    });
  });

  describe('blockHashesOf', () => {
    it('maps each block number to the hash its logs were read from', () => {
      expect([
        ...blockHashesOf([
          { blockNumber: 1, blockHash: '0x01' },
          { blockNumber: 1, blockHash: '0x01' },
          { blockNumber: 4, blockHash: '0x04' },
        ]),
      ]).to.deep.equal([
        [1, '0x01'],
        [4, '0x04'],
      ]);
    });
  });
});
