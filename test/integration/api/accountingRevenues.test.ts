import { expect } from 'chai';
import type { Hex } from 'viem';
import { signSession } from '../../../api/identity/jwt.js';
import { distributionCreatorAbi } from '../../../contracts/artifacts/index.js';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { createDevnetClients } from '../../../contracts/clients.js';
import { campaignDbId } from '../../../domain/ids.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';

const DAY = 86_400;
const BO = { authorization: TEST_BACK_OFFICE_TOKEN };
const FEE_RECIPIENT = `0x${'fe'.repeat(20)}` as Hex;

type Group = {
  month: string;
  chainId: number;
  tokenAddress: string;
  amount: string;
  amountUsd: number | null;
  campaigns: number;
};

describe('GET /v4/accounting/revenues (+ per month, chain, token): creation fees (issue 33)', function () {
  let h: Harness;
  /** Campaign id → the fee the chain took (gross sent − net emitted), read from the test's own transactions. */
  const expectedFees = new Map<string, bigint>();

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const { devnet, stack } = h.chains[0]!;
    const rpcUrl = devnet.rpcUrl;
    const { walletClient, publicClient } = createDevnetClients({ rpcUrl, chainId: devnet.chainId });
    const admin = async (functionName: 'setFeeRecipient' | 'setUserFeeRebate', args: readonly unknown[]) =>
      publicClient.waitForTransactionReceipt({
        hash: await walletClient.writeContract({
          address: stack.distributionCreator,
          abi: distributionCreatorAbi,
          functionName,
          args,
        } as never),
      });
    const now = await getLatestTimestamp({ rpcUrl });
    let n = 0;
    const create = async (reward: number, amounts: bigint[]) => {
      const res = await createCampaigns({
        rpcUrl,
        chainId: devnet.chainId,
        stack,
        campaigns: amounts.map((amount) => ({
          rewardToken: stack.tokens.rewards[reward]!.address,
          amount,
          campaignType: 1,
          startTimestamp: now + DAY + 7919 + n++,
          duration: 7 * DAY,
          campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
        })),
      });
      res.campaigns.forEach((c, i) =>
        expectedFees.set(campaignDbId(devnet.chainId, c.campaignId), amounts[i]! - c.amount),
      );
    };
    // Two campaigns in one transaction (3 % default fee kept by the contract), an odd amount for rounding.
    await create(0, [1000n * 10n ** 18n, 333n * 10n ** 18n + 7n]);
    // The fee sent to a fee recipient, in another token.
    await admin('setFeeRecipient', [FEE_RECIPIENT]);
    await create(1, [500n * 10n ** 6n]);
    await admin('setFeeRecipient', [`0x${'00'.repeat(20)}`]);
    // A full rebate: no fee at all.
    await admin('setUserFeeRebate', [stack.deployer, 1_000_000_000n]);
    await create(0, [10n ** 18n]);
    await admin('setUserFeeRebate', [stack.deployer, 0n]);
    for (const job of ['blocks', 'campaigns', 'campaign-fees'])
      expect((await h.runJob(job)).status, job).to.equal('success');
    const ids = [...expectedFees.keys()];
    // One campaign created in an earlier month (prices are read at its creation day), one private.
    await h.deps.pg.query(`UPDATE campaigns SET created_at = '2025-06-15T12:00:00Z' WHERE id = $1`, [ids[1]]);
    await h.deps.pg.query(
      'INSERT INTO campaign_privacy (campaign_db_id, is_private, updated_by) VALUES ($1, true, $2)',
      [ids[0], stack.deployer.toLowerCase()],
    );
    const rwd = `31337-${stack.tokens.rewards[0]!.address.toLowerCase()}`;
    const { rows } = await h.deps.pg.query('SELECT id FROM tokens WHERE chain_id = 31337 AND address = $1', [
      stack.tokens.rewards[0]!.address.toLowerCase(),
    ]);
    const tokenId = rows[0]?.id ?? rwd;
    for (const [day, close] of [
      ['2025-06-10', 1.25],
      ['2025-06-20', 9],
      [new Date(Date.now() - 3 * DAY * 1000).toISOString().slice(0, 10), 2],
    ] as const)
      await h.deps.pg.query(
        `INSERT INTO token_price_history (token_id, day, open, close, min, max, source, updated_at) VALUES ($1, $2, $3, $3, $3, $3, 'test', now())`,
        [tokenId, day, close],
      );
  });

  after(async () => h?.close());

  it('stores each campaign the fee its creation transaction moved, and fills rows left without one', async function () {
    const read = async () =>
      new Map(
        (
          await h.deps.pg.query<{ id: string; fee: string }>('SELECT id, fee_amount::text AS fee FROM campaigns')
        ).rows.map((r) => [r.id, r.fee]),
      );
    const want = new Map([...expectedFees].map(([id, fee]) => [id, fee.toString()]));
    expect(await read()).to.deep.equal(want);
    expect([...want.values()].filter((f) => f === '0')).to.have.length(1);
    // A row indexed before the column existed (NULL) is filled by the next run, as the migration leaves them.
    await h.deps.pg.query('UPDATE campaigns SET fee_amount = NULL');
    expect((await h.runJob('campaign-fees')).status).to.equal('success');
    expect(await read()).to.deep.equal(want);
  });

  /** The groups recomputed from the base tables, one campaign at a time (no GROUP BY), with the price of the creation day. */
  async function recompute(where: (c: { chain: number; token: string; month: string }) => boolean): Promise<Group[]> {
    const { rows } = await h.deps.pg.query<{
      chain: number;
      token: string;
      created: Date;
      fee: string;
      decimals: number;
      token_id: string;
    }>(
      `SELECT c.distribution_chain_id AS chain, c.reward_token AS token, c.created_at AS created, c.fee_amount::text AS fee, t.decimals, t.id AS token_id
       FROM campaigns c JOIN tokens t ON t.chain_id = c.distribution_chain_id AND t.address = c.reward_token`,
    );
    const prices = (
      await h.deps.pg.query<{ token_id: string; day: string; close: number }>(
        `SELECT token_id, to_char(day, 'YYYY-MM-DD') AS day, close FROM token_price_history`,
      )
    ).rows;
    const groups = new Map<string, Group>();
    for (const r of rows) {
      const month = r.created.toISOString().slice(0, 7);
      if (!where({ chain: r.chain, token: r.token, month })) continue;
      const day = r.created.toISOString().slice(0, 10);
      const price = prices
        .filter((p) => p.token_id === r.token_id && p.day <= day)
        .sort((a, b) => (a.day < b.day ? 1 : -1))[0]?.close;
      const key = `${month}|${r.chain}|${r.token}`;
      const g = groups.get(key) ?? {
        month,
        chainId: r.chain,
        tokenAddress: r.token,
        amount: '0',
        amountUsd: null,
        campaigns: 0,
      };
      g.amount = (BigInt(g.amount) + BigInt(r.fee)).toString();
      if (price !== undefined) g.amountUsd = (g.amountUsd ?? 0) + (Number(r.fee) / 10 ** r.decimals) * price;
      g.campaigns += 1;
      groups.set(key, g);
    }
    return [...groups.values()].sort((a, b) =>
      `${a.month}|${a.chainId}|${a.tokenAddress}` < `${b.month}|${b.chainId}|${b.tokenAddress}` ? -1 : 1,
    );
  }

  async function served(path: string): Promise<{ groups: Group[]; totalUsd: number; campaigns: number }> {
    const res = await h.request().get(path).set(BO).expect(200);
    expect(res.headers['cache-control']).to.equal('private, no-store');
    return {
      totalUsd: res.body.totalUsd,
      campaigns: res.body.campaigns,
      groups: res.body.revenues.map((g: Group) => ({
        month: g.month,
        chainId: g.chainId,
        tokenAddress: g.tokenAddress,
        amount: g.amount,
        amountUsd: g.amountUsd,
        campaigns: g.campaigns,
      })),
    };
  }

  function expectSame(got: { groups: Group[]; totalUsd: number; campaigns: number }, want: Group[]) {
    expect(got.groups.map((g) => ({ ...g, amountUsd: null }))).to.deep.equal(
      want.map((g) => ({ ...g, amountUsd: null })),
    );
    got.groups.forEach((g, i) => {
      if (want[i]!.amountUsd === null) expect(g.amountUsd).to.equal(null);
      else expect(g.amountUsd).to.be.closeTo(want[i]!.amountUsd!, 1e-9 * want[i]!.amountUsd!);
    });
    expect(got.campaigns).to.equal(want.reduce((s, g) => s + g.campaigns, 0));
    expect(got.totalUsd).to.be.closeTo(
      want.reduce((s, g) => s + (g.amountUsd ?? 0), 0),
      1e-6,
    );
  }

  it('serves per month, chain and token what the base tables give, private campaigns included, in units and USD at creation', async function () {
    const all = await recompute(() => true);
    expect(all.length).to.equal(3);
    expect(all.find((g) => g.month === '2025-06')!.amountUsd).to.be.closeTo((333 + 7e-18) * 0.03 * 1.25, 1e-9);
    expectSame(await served('/v4/accounting/revenues'), all);
    expectSame(await served('/v4/accounting/revenues/'), all);
    const rwd = h.chains[0]!.stack.tokens.rewards[0]!.address.toLowerCase();
    const nowMonth = new Date().toISOString().slice(0, 7);
    const [y, m] = nowMonth.split('-').map(Number);
    const cases: [string, (c: { chain: number; token: string; month: string }) => boolean][] = [
      ['/v4/accounting/revenues/per-month/2025/6', (c) => c.month === '2025-06'],
      [`/v4/accounting/revenues/per-month/${y}/${m}`, (c) => c.month === nowMonth],
      ['/v4/accounting/revenues/per-month/2024/1', () => false],
      ['/v4/accounting/revenues/chains/31337', (c) => c.chain === 31337],
      ['/v4/accounting/revenues/chains/1', () => false],
      ['/v4/accounting/revenues/chains/31337/per-month/2025/06', (c) => c.chain === 31337 && c.month === '2025-06'],
      [`/v4/accounting/revenues/tokens/31337/${rwd.toUpperCase().replace('0X', '0x')}`, (c) => c.token === rwd],
      [
        `/v4/accounting/revenues/tokens/31337/${rwd}/per-month/${y}/${m}`,
        (c) => c.token === rwd && c.month === nowMonth,
      ],
    ];
    for (const [path, where] of cases) expectSame(await served(path), await recompute(where));
  });

  it('is back office only: 401 without a credential, 403 for a wallet session', async function () {
    for (const path of ['/v4/accounting/revenues', '/v4/accounting/revenues/chains/31337/per-month/2025/6']) {
      await h.request().get(path).expect(401);
      const jwt = signSession({ secret: h.config.jwtSecret, address: `0x${'12'.repeat(20)}`, tier: 0 }).token;
      await h
        .request()
        .get(path)
        .set({ Cookie: `jwt=${jwt}` })
        .expect(403);
    }
  });

  it('names the bad path parameter in a 400', async function () {
    for (const [path, field] of [
      ['/v4/accounting/revenues/per-month/2025/13', 'month'],
      ['/v4/accounting/revenues/per-month/99/1', 'year'],
      ['/v4/accounting/revenues/chains/x', 'chainId'],
      ['/v4/accounting/revenues/tokens/31337/0x12', 'tokenAddress'],
    ] as const) {
      const res = await h.request().get(path).set(BO).expect(400);
      expect(JSON.stringify(res.body.errors), path).to.include(field);
    }
    await h.request().get('/v4/accounting/revenues?chainId=1').set(BO).expect(400);
  });
});
