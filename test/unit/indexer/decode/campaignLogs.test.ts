import { expect } from 'chai';
import {
  encodeAbiParameters,
  encodeEventTopics,
  formatLog,
  keccak256,
  numberToHex,
  parseEventLogs,
  toHex,
  type Hex,
  type Log,
  type RpcLog,
} from 'viem';
import {
  CAMPAIGN_EVENTS,
  campaignOverrideEvent,
  newCampaignEvent,
  rewardTokenMinimumAmountUpdatedEvent,
} from '../../../../domain/abis/distributionCreator.js';
import { decodeCampaignLogs } from '../../../../indexer/decode/campaignLogs.js';
import { decodeCampaignOverride, decodeNewCampaign } from '../../../../indexer/decode/campaignEvents.js';
import { decodeCampaignTupleData, type CampaignTuple } from '../../../../indexer/decode/newCampaignData.js';
import { seededRandom } from '../../../helpers/seededRandom.js';

/** Deterministic values (seededRandom), so a failing case can be replayed. */
function random(seed: number) {
  const next = seededRandom(seed);
  const hex = (bytes: number) =>
    `0x${Array.from({ length: bytes }, () =>
      Math.floor(next() * 256)
        .toString(16)
        .padStart(2, '0'),
    ).join('')}` as Hex;
  return { next, hex, int: (max: number) => Math.floor(next() * max) };
}

const NEW_CAMPAIGN_TOPICS = encodeEventTopics({ abi: [newCampaignEvent], eventName: 'NewCampaign' }) as [Hex];

function rawLog(data: Hex, i: number, topics: Hex[] = NEW_CAMPAIGN_TOPICS): RpcLog {
  return {
    address: '0x4444444444444444444444444444444444444444',
    topics: topics as [Hex],
    data,
    blockNumber: numberToHex(1000 + i),
    blockHash: keccak256(toHex(i)),
    transactionHash: keccak256(toHex(i + 1_000_000)),
    logIndex: numberToHex(i % 7),
    transactionIndex: '0x0',
    removed: false,
  } as RpcLog;
}

function tupleOf(r: ReturnType<typeof random>): CampaignTuple {
  const uint32 = () => [0, 1, 2 ** 32 - 1, r.int(2 ** 32)][r.int(4)]!;
  const amounts = [0n, 1n, 2n ** 256n - 1n, BigInt(r.hex(16)), BigInt(r.hex(32))];
  return {
    campaignId: r.hex(32),
    creator: r.hex(20),
    rewardToken: r.hex(20),
    amount: amounts[r.int(amounts.length)]!,
    campaignType: uint32(),
    startTimestamp: uint32(),
    duration: uint32(),
    campaignData: r.hex([0, 1, 31, 32, 33, 64, 500][r.int(7)]!),
  };
}

/** The reference: viem's parseEventLogs, then decodeNewCampaign (addresses lower-cased, as every row stores them). */
function viaViem(logs: RpcLog[]) {
  return parseEventLogs({ abi: CAMPAIGN_EVENTS, logs: logs.map((l) => formatLog(l) as Log), strict: true })
    .filter((l) => l.eventName === 'NewCampaign')
    .map((l) => {
      const e = decodeNewCampaign(5, l as never);
      return { ...e, creator: e.creator.toLowerCase(), rewardToken: e.rewardToken.toLowerCase() };
    });
}

describe('indexer/decode/campaignLogs', () => {
  it('decodes 2,000 random NewCampaign logs exactly as viem does (extreme amounts, uint32 bounds, data of 0 to 500 bytes)', () => {
    const r = random(7);
    const logs = Array.from({ length: 2000 }, (_, i) =>
      rawLog(encodeAbiParameters(newCampaignEvent.inputs, [tupleOf(r)]), i),
    );
    const fast = decodeCampaignLogs(5, logs);
    expect(fast.newCampaigns).to.have.length(2000);
    expect(fast.newCampaigns).to.deep.equal(viaViem(logs));
  });

  it('declines data out of the plain shape, and the log is then decoded by viem as before', () => {
    const r = random(11);
    const good = encodeAbiParameters(newCampaignEvent.inputs, [tupleOf(r)]);
    const word = (i: number) => 2 + i * 64;
    const put = (data: Hex, i: number, w: string) => `${data.slice(0, word(i))}${w}${data.slice(word(i + 1))}` as Hex;
    const dirtyAddress = put(good, 2, `ff${good.slice(word(2) + 2, word(3))}`); // creator word with high bits set
    const bigUint32 = put(good, 5, `${'0'.repeat(55)}1${'0'.repeat(8)}`); // campaignType ≥ 2^32
    const badOffset = put(good, 0, (0x40).toString(16).padStart(64, '0')); // tuple not where the head says (viem: out of bounds or other values)
    const truncated = good.slice(0, good.length - 64) as Hex;
    for (const data of [dirtyAddress, bigUint32, badOffset, truncated, '0x' as Hex, `${good}0` as Hex]) {
      expect(decodeCampaignTupleData(data), data.slice(0, 80)).to.equal(null);
    }
    const logs = [dirtyAddress, bigUint32, badOffset, truncated].map((d, i) => rawLog(d, i));
    expect(decodeCampaignLogs(5, logs).newCampaigns).to.deep.equal(viaViem(logs));
    expect(viaViem([logs[0]!])).to.have.length(1); // viem reads the dirty address word (low 20 bytes): so do we, through it
  });

  it('keeps chain order and routes CampaignOverride logs through viem; logs of other events are dropped', () => {
    const r = random(3);
    const tuple = tupleOf(r);
    const override = rawLog(
      encodeAbiParameters(campaignOverrideEvent.inputs, [r.hex(32), tuple]),
      1,
      encodeEventTopics({ abi: [campaignOverrideEvent], eventName: 'CampaignOverride' }) as Hex[],
    );
    const foreign = rawLog('0x', 2, [keccak256(toHex('Transfer(address,address,uint256)'))]);
    const logs = [
      rawLog(encodeAbiParameters(newCampaignEvent.inputs, [tupleOf(r)]), 0),
      override,
      foreign,
      rawLog(encodeAbiParameters(newCampaignEvent.inputs, [tupleOf(r)]), 3),
    ];
    const out = decodeCampaignLogs(5, logs);
    expect(out.newCampaigns.map((e) => e.blockNumber)).to.deep.equal([1000, 1003]);
    const viem = parseEventLogs({ abi: CAMPAIGN_EVENTS, logs: [formatLog(override) as Log], strict: true })[0]!;
    expect(out.overrides).to.deep.equal([decodeCampaignOverride(5, viem as never)]);
    expect(out.reallocations).to.deep.equal([]);
  });

  it('decodes the whitelist log RewardTokenMinimumAmountUpdated (token lower-case, uint256 amount) beside the others', () => {
    const token = '0xabcdef0000000000000000000000000000000001';
    const topics = encodeEventTopics({
      abi: [rewardTokenMinimumAmountUpdatedEvent],
      eventName: 'RewardTokenMinimumAmountUpdated',
      args: { token },
    }) as Hex[];
    const amount = 2n ** 256n - 1n;
    const out = decodeCampaignLogs(5, [
      rawLog(encodeAbiParameters([{ type: 'uint256' }], [amount]), 4, topics),
      rawLog(encodeAbiParameters([{ type: 'uint256' }], [0n]), 5, topics),
    ]);
    expect(out.rewardTokenMinAmounts.map((e) => [e.token, e.amount, e.blockNumber])).to.deep.equal([
      [token.toLowerCase(), amount, 1004],
      [token.toLowerCase(), 0n, 1005],
    ]);
    expect(out.newCampaigns.length + out.overrides.length + out.reallocations.length).to.equal(0);
  });

  it('refuses a pending log (no block position)', () => {
    const data = encodeAbiParameters(newCampaignEvent.inputs, [tupleOf(random(1))]);
    expect(() => decodeCampaignLogs(5, [{ ...rawLog(data, 0), blockNumber: null } as unknown as RpcLog])).to.throw(
      /without block position/,
    );
  });
});
