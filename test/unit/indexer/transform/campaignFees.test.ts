import { expect } from 'chai';
import { encodeAbiParameters, pad, toEventSelector, type Hex } from 'viem';
import { newCampaignEvent } from '../../../../domain/abis/distributionCreator.js';
import { campaignFeesOfReceipt, type ReceiptLog } from '../../../../indexer/transform/campaignFees.js';

const CREATOR = `0x${'c1'.repeat(20)}` as Hex;
const DISTRIBUTOR = `0x${'d1'.repeat(20)}` as Hex;
const RECIPIENT = `0x${'fe'.repeat(20)}` as Hex;
const SENDER = `0x${'5e'.repeat(20)}` as Hex;
const RWD = `0x${'a1'.repeat(20)}` as Hex;
const OTHER = `0x${'a2'.repeat(20)}` as Hex;
const TRANSFER = toEventSelector('event Transfer(address indexed from, address indexed to, uint256 value)');

let index = 0;
const transfer = (token: Hex, to: Hex, value: bigint): ReceiptLog => ({
  address: token,
  topics: [TRANSFER, pad(SENDER), pad(to)],
  data: encodeAbiParameters([{ type: 'uint256' }], [value]),
  logIndex: index++,
});
const created = (): ReceiptLog => ({
  address: CREATOR,
  topics: [toEventSelector(newCampaignEvent)],
  data: '0x',
  logIndex: index++,
});

describe('indexer/transform/campaignFees campaignFeesOfReceipt', () => {
  it('gives each campaign of a batch the reward-token transfers before its NewCampaign that do not go to the Distributor', () => {
    index = 0;
    const logs = [
      transfer(RWD, CREATOR, 30n),
      transfer(RWD, DISTRIBUTOR, 970n),
      created(),
      transfer(OTHER, RECIPIENT, 5n), // another token: not this campaign's fee
      transfer(RWD, RECIPIENT, 7n),
      transfer(RWD, DISTRIBUTOR, 93n),
      created(),
      transfer(RWD, DISTRIBUTOR, 100n), // no fee (rebate)
      created(),
    ];
    const fees = campaignFeesOfReceipt({
      logs: [...logs].reverse(), // order comes from logIndex, not from the array
      campaigns: [
        { id: 'a', logIndex: 2, rewardToken: RWD },
        { id: 'b', logIndex: 6, rewardToken: RWD },
        { id: 'c', logIndex: 8, rewardToken: RWD },
      ],
      distributionCreator: CREATOR.toUpperCase().replace('0X', '0x'),
      distributor: DISTRIBUTOR,
    });
    expect(Object.fromEntries(fees)).to.deep.equal({ a: 30n, b: 7n, c: 0n });
  });

  it('leaves out NewCampaign logs of campaigns not asked for and logs of other contracts', () => {
    index = 0;
    const logs = [transfer(RWD, CREATOR, 3n), { ...created(), address: OTHER }, created()];
    const fees = campaignFeesOfReceipt({
      logs,
      campaigns: [{ id: 'x', logIndex: 2, rewardToken: RWD }],
      distributionCreator: CREATOR,
      distributor: DISTRIBUTOR,
    });
    expect(Object.fromEntries(fees)).to.deep.equal({ x: 3n });
  });
});
