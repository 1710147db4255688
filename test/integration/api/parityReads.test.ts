import { expect } from 'chai';
import supertest from 'supertest';
import { erc20Abi, maxUint256, type Address } from 'viem';
import { distributionCreatorAbi, distributorAbi } from '../../../contracts/artifacts/index.js';
import { createDevnetClients } from '../../../contracts/clients.js';
import {
  disputeTree,
  mine,
  resolveDispute,
  setDisputeDeposit,
  setDisputePeriod,
  updateTree,
} from '../../../contracts/actions.js';
import { createChainClients } from '../../../internal/rpc.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

type Price = { tokenId: string; chainId: number; address: string; symbol: string; price: number | null };
type Candle = {
  day: number;
  timestamp: string;
  date: string;
  open: number;
  close: number;
  min: number;
  max: number;
  source: string;
};
type Balance = { id: string; address: string; symbol: string; balance: string; blockNumber: number };

/**
 * #33 parity reads (prices, live roots, reward tokens, balances, allowances) on the seeded demo;
 * every figure is recomputed from PostgreSQL or read from the devnet directly.
 */
describe('GET /v4/prices, /roots/live, /tokens/reward, /tokens/balances, /tokens/{id}/allowance', function () {
  let demo: ReferenceDemo;
  const chainId = 31337;
  const get = (path: string, query: Record<string, unknown> = {}, status = 200) =>
    demo.h.request().get(path).query(query).expect(status);
  const fieldsOf = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field);
  const chain = () => createDevnetClients({ rpcUrl: demo.h.chains[0]!.devnet.rpcUrl, chainId });
  const stack = () => demo.h.chains[0]!.stack;

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
  });

  after(async () => demo?.close());

  describe('prices', function () {
    it('lists the current prices of priced tokens as stored, filtered and paged', async function () {
      const { rows } = await demo.h.deps.pg.query<{ id: string; symbol: string; price: number; chain_id: number }>(
        `SELECT t.id, t.symbol, p.price, t.chain_id FROM token_prices p JOIN tokens t ON t.id = p.token_id
         WHERE NOT t.is_test ORDER BY t.chain_id, lower(t.symbol), t.id`,
      );
      expect(rows.length).to.be.greaterThan(3);
      const listed = await get('/v4/prices/', { items: 100 });
      expect(listed.headers['cache-control']).to.equal('public, max-age=30, stale-while-revalidate=60');
      const all = listed.body as Price[];
      expect(all.map((p) => [p.tokenId, p.symbol, p.price])).to.deep.equal(rows.map((r) => [r.id, r.symbol, r.price]));
      const page1 = (await get('/v4/prices', { items: 2, page: 1 })).body as Price[];
      expect(page1.map((p) => p.tokenId)).to.deep.equal(rows.slice(2, 4).map((r) => r.id));
      const rwd = (await get('/v4/prices', { chainId, symbol: 'rwd' })).body as Price[];
      expect(rwd.map((p) => p.tokenId)).to.deep.equal(rows.filter((r) => r.symbol === 'RWD').map((r) => r.id));
      expect(fieldsOf((await get('/v4/prices', { chainId: 'x' }, 400)).body)).to.deep.equal(['chainId']);
    });

    it('answers the prices of a symbol, 404 when none is priced', async function () {
      const { rows } = await demo.h.deps.pg.query<{ id: string; price: number }>(
        `SELECT t.id, p.price FROM token_prices p JOIN tokens t ON t.id = p.token_id WHERE t.symbol = 'RWD'`,
      );
      const body = (await get('/v4/prices/symbol/rwd')).body as Price[];
      expect(body.map((p) => [p.tokenId, p.price])).to.deep.equal(rows.map((r) => [r.id, r.price]));
      await get('/v4/prices/symbol/NOPE', {}, 404);
    });

    it('folds the daily candles per grain, as JSON or CSV, on both history paths', async function () {
      const pg = demo.h.deps.pg;
      const token = (
        await pg.query<{ id: string; address: string }>(`SELECT id, address FROM tokens WHERE symbol = 'RWD'`)
      ).rows[0]!;
      // Five days over two ISO weeks (2026-01-01 is a Thursday) and two months: Unix days 20453..20457 and 20484.
      const days = [
        ['2025-12-31', 1, 2, 0.5, 3, 'A'],
        ['2026-01-01', 2, 3, 1.5, 4, 'A'],
        ['2026-01-04', 3, 4, 2.5, 5, 'B'],
        ['2026-01-05', 4, 5, 3.5, 6, 'B'],
        ['2026-02-01', 5, 6, 4.5, 7, 'C'],
      ] as const;
      for (const [day, open, close, min, max, source] of days)
        await pg.query(
          `INSERT INTO token_price_history (token_id, day, open, close, min, max, source, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, now())
           ON CONFLICT (token_id, day) DO UPDATE SET open = $3, close = $4, min = $5, max = $6, source = $7`,
          [token.id, day, open, close, min, max, source],
        );
      const unixDay = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
      const start = (d: string) => ({
        day: unixDay(d),
        timestamp: String(unixDay(d) * 86_400),
        date: `${d}T00:00:00.000Z`,
      });
      const q = { chainId, address: token.address, from: unixDay('2025-12-31'), to: unixDay('2026-02-01') };
      const daily = (await get('/v4/prices/history', q)).body as Candle[];
      expect(daily).to.deep.equal(
        days.map(([day, open, close, min, max, source]) => ({
          ...start(day),
          open,
          close,
          min,
          max,
          source,
        })),
      );
      const weekly = (await get('/v4/prices/history', { ...q, grain: 'week' })).body as Candle[];
      // Weeks from Monday: 2025-12-29 (Dec 31, Jan 1, Jan 4), 2026-01-05, 2026-01-26 (Feb 1).
      expect(weekly).to.deep.equal([
        { ...start('2025-12-29'), open: 1, close: 4, min: 0.5, max: 5, source: 'B' },
        { ...start('2026-01-05'), open: 4, close: 5, min: 3.5, max: 6, source: 'B' },
        { ...start('2026-01-26'), open: 5, close: 6, min: 4.5, max: 7, source: 'C' },
      ]);
      const monthly = (await get('/v4/tokens/prices/history/', { ...q, grain: 'month' })).body as Candle[];
      expect(monthly.map((c) => [c.date.slice(0, 10), c.open, c.close, c.min, c.max])).to.deep.equal([
        ['2025-12-01', 1, 2, 0.5, 3],
        ['2026-01-01', 2, 5, 1.5, 6],
        ['2026-02-01', 5, 6, 4.5, 7],
      ]);
      const bySymbol = (await get('/v4/tokens/prices/history', { symbol: 'RWD', from: q.from, to: q.to })).body;
      expect(bySymbol).to.deep.equal(daily);
      const csv = await demo.h.request().get('/v4/prices/history').query(q).set('Accept', 'text/csv').expect(200);
      expect(csv.headers['content-type']).to.match(/^text\/csv/);
      expect(csv.headers['vary']).to.match(/Accept/i);
      expect(csv.text.split('\n')[0]).to.equal('day,timestamp,date,open,close,min,max,source');
      const first = start('2025-12-31');
      expect(csv.text.split('\n')[1]).to.equal(`${first.day},${first.timestamp},${first.date},1,2,0.5,3,A`);
      expect((await get('/v4/prices/history', { ...q, format: 'csv' })).text).to.equal(csv.text);
    });

    it('serves hourly candles as the prices job stored them, within the window of Unix days', async function () {
      const pg = demo.h.deps.pg;
      const token = (await pg.query<{ id: string }>(`SELECT id FROM tokens WHERE symbol = 'USDCx'`)).rows[0]!;
      const hours = ['2026-03-01T00:00:00Z', '2026-03-01T13:00:00Z', '2026-03-02T23:00:00Z', '2026-03-03T00:00:00Z'];
      for (const [i, hour] of hours.entries())
        await pg.query(
          `INSERT INTO token_price_hourly (token_id, hour, open, close, min, max, source, updated_at) VALUES ($1, $2, $3, $3, $3, $3, 'S', now())`,
          [token.id, hour, i + 1],
        );
      const day = (iso: string) => Math.floor(Date.parse(iso) / 86_400_000);
      const body = (
        await get('/v4/prices/history', { symbol: 'USDCx', grain: 'hour', from: day(hours[0]!), to: day(hours[2]!) })
      ).body as Candle[];
      // The window holds its last day whole (to 23:59:59) and nothing of the next.
      expect(body.map((c) => [c.date, c.day, c.timestamp, c.open])).to.deep.equal(
        hours.slice(0, 3).map((h, i) => [h.replace('Z', '.000Z'), day(h), String(Date.parse(h) / 1000), i + 1]),
      );
    });

    it('names the field of a history request it cannot answer', async function () {
      const address = stack().tokens.rewards[0]!.address;
      const cases: [Record<string, unknown>, string][] = [
        [{ chainId, address, grain: 'minute' }, 'grain'],
        [{ chainId, address, grain: 'hour', from: 20_000, to: 20_100 }, 'from'],
        [{ address }, 'chainId'],
        [{ chainId }, 'address'],
        [{ chainId, address, from: 20_000, to: 19_000 }, 'to'],
        [{ chainId, address, from: 1_764_000_000 }, 'from'],
      ];
      for (const [query, field] of cases)
        expect(fieldsOf((await get('/v4/prices/history', query, 400)).body), JSON.stringify(query)).to.deep.equal([
          field,
        ]);
      await get('/v4/prices/history', { chainId, address: `0x${'12'.repeat(20)}` }, 404);
    });
  });

  describe('GET /v4/roots/live', function () {
    /** The Distributor's own answers at `blockNumber`. */
    async function onChainRoots(blockNumber: bigint) {
      const { publicClient } = chain();
      const read = <F extends 'getMerkleRoot' | 'tree' | 'lastTree' | 'endOfDisputePeriod'>(functionName: F) =>
        publicClient.readContract({ address: stack().distributor, abi: distributorAbi, functionName, blockNumber });
      const [live, tree, lastTree, end] = await Promise.all([
        read('getMerkleRoot'),
        read('tree'),
        read('lastTree'),
        read('endOfDisputePeriod'),
      ]);
      return {
        live: (live as string).toLowerCase(),
        tree: ((tree as readonly string[])[0] as string).toLowerCase(),
        lastTree: ((lastTree as readonly string[])[0] as string).toLowerCase(),
        endOfDisputePeriod: Number(end),
      };
    }
    const indexedHead = async () =>
      BigInt(
        (
          await demo.h.deps.pg.query<{ b: string }>(
            `SELECT block_number::text AS b FROM cursors WHERE job = 'roots' AND chain_id = $1`,
            [chainId],
          )
        ).rows[0]!.b,
      );

    it('serves what getMerkleRoot(), tree(), lastTree() and endOfDisputePeriod() return at the indexed block', async function () {
      const body = (await get('/v4/roots/live')).body;
      expect(Object.keys(body)).to.deep.equal([String(chainId)]);
      const onChain = await onChainRoots(await indexedHead());
      expect(body[chainId]).to.include(onChain);
      expect(body[chainId].pending).to.equal(null);
      expect(body[chainId].disputeOpen).to.equal(false);
      expect(onChain.live).to.equal(demo.seeded.roots[demo.seeded.roots.length - 1]!.toLowerCase());
    });

    it('keeps the previous root live while a new one is in its dispute period, and names the pending one', async function () {
      this.timeout(120_000);
      const { devnet } = demo.h.chains[0]!;
      await setDisputePeriod({ rpcUrl: devnet.rpcUrl, chainId, stack: stack(), disputePeriod: 5 });
      const root = `0x${'ab'.repeat(32)}` as const;
      await updateTree({ rpcUrl: devnet.rpcUrl, chainId, stack: stack(), root });
      for (const job of ['blocks', 'roots']) expect((await demo.h.runJob(job)).status).to.equal('success');
      const body = (await get('/v4/roots/live')).body[chainId];
      const onChain = await onChainRoots(await indexedHead());
      expect(body).to.include(onChain);
      expect(onChain.tree).to.equal(root);
      expect(body.live).to.not.equal(root);
      expect(body.pending).to.equal(root);
    });

    it('follows a dispute: the pending root is not live while disputed, and a valid dispute revokes it', async function () {
      this.timeout(120_000);
      const { devnet } = demo.h.chains[0]!;
      const target = { rpcUrl: devnet.rpcUrl, chainId, stack: stack() };
      const token = stack().tokens.rewards[0]!.address;
      const { walletClient, publicClient } = chain();
      await publicClient.waitForTransactionReceipt({
        hash: await walletClient.writeContract({
          address: token,
          abi: erc20Abi,
          functionName: 'approve',
          args: [stack().distributor, maxUint256],
        }),
      });
      await setDisputeDeposit({ ...target, token, amount: 1n });
      const before = (await get('/v4/roots/live')).body[chainId];
      expect(before.pending, 'the root of the previous test is still pending').to.not.equal(null);
      const index = async () => {
        for (const job of ['blocks', 'roots']) expect((await demo.h.runJob(job)).status).to.equal('success');
        const served = (await get('/v4/roots/live')).body[chainId];
        expect(served).to.include(await onChainRoots(await indexedHead()));
        return served;
      };
      await disputeTree({ ...target, reason: 'parity read test' });
      const disputed = await index();
      expect(disputed).to.include({ disputeOpen: true, live: before.live, pending: before.pending });
      const disputer = await publicClient.readContract({
        address: stack().distributor,
        abi: distributorAbi,
        functionName: 'disputer',
      });
      expect(BigInt(disputer), 'a dispute is open on chain').to.not.equal(0n);
      expect(disputed.disputer, "the Distributor's disputer()").to.equal(disputer.toLowerCase());
      await mine({ rpcUrl: devnet.rpcUrl, timestamp: disputed.endOfDisputePeriod + 60 });
      expect(await index(), 'still not live past its period while disputed').to.include({ live: before.live });
      await resolveDispute({ ...target, valid: true });
      const revoked = await index();
      expect(revoked).to.include({ disputeOpen: false, live: before.live, tree: before.live, pending: null });
      expect(revoked, 'no disputer once resolved').to.not.have.property('disputer');
      expect(revoked.endOfDisputePeriod).to.equal(0);
    });
  });

  describe('GET /v4/tokens/reward', function () {
    /** The DistributionCreator's whitelist as it answers it: address → minimum per hour. */
    async function onChainWhitelist(): Promise<Record<string, string>> {
      const tokens = await chain().publicClient.readContract({
        address: stack().distributionCreator,
        abi: distributionCreatorAbi,
        functionName: 'getValidRewardTokens',
      });
      return Object.fromEntries(tokens.map((t) => [t.token.toLowerCase(), t.minimumAmountPerEpoch.toString()]));
    }
    const served = async () =>
      Object.fromEntries(
        ((await get(`/v4/tokens/reward/${chainId}`)).body as { address: string; minimumAmountPerHour: string }[]).map(
          (t) => [t.address, t.minimumAmountPerHour],
        ),
      );

    it('serves the whitelist the DistributionCreator answers, per chain and as a map', async function () {
      const expected = await onChainWhitelist();
      expect(Object.keys(expected)).to.have.length(4);
      expect(await served()).to.deep.equal(expected);
      const map = (await get('/v4/tokens/reward/')).body;
      expect(Object.keys(map)).to.deep.equal([String(chainId)]);
      expect(map[chainId]).to.deep.equal((await get(`/v4/tokens/reward/${chainId}/`)).body);
      expect(map[chainId][0]).to.include.keys('id', 'symbol', 'decimals', 'price', 'minimumAmountPerHour');
      const points = (await get('/v4/tokens/reward', { tokenTypes: 'POINT' })).body;
      expect((points[chainId] ?? []).every((t: { type: string }) => t.type === 'POINT')).to.equal(true);
      expect((await get('/v4/tokens/reward/999')).body).to.deep.equal([]);
      expect(fieldsOf((await get('/v4/tokens/reward/abc', {}, 400)).body)).to.deep.equal(['chainId']);
    });

    it('follows the whitelist as the governor changes and removes tokens', async function () {
      this.timeout(120_000);
      const [first, second] = stack().tokens.rewards;
      const { walletClient, publicClient } = chain();
      await publicClient.waitForTransactionReceipt({
        hash: await walletClient.writeContract({
          address: stack().distributionCreator,
          abi: distributionCreatorAbi,
          functionName: 'setRewardTokenMinAmounts',
          args: [
            [first!.address, second!.address],
            [0n, 777n],
          ],
        }),
      });
      for (const job of ['blocks', 'campaigns']) expect((await demo.h.runJob(job)).status).to.equal('success');
      const expected = await onChainWhitelist();
      expect(expected).to.not.have.property(first!.address.toLowerCase());
      expect(expected[second!.address.toLowerCase()]).to.equal('777');
      expect(await served()).to.deep.equal(expected);
    });
  });

  describe('GET /v4/tokens/balances and /v4/tokens/{id}/allowance', function () {
    const balanceAt = (token: string, owner: string, blockNumber: number) =>
      chain().publicClient.readContract({
        address: token as Address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [owner as Address],
        blockNumber: BigInt(blockNumber),
      });

    it("reads the chain's reward tokens' balances at one block by default, each equal to balanceOf there", async function () {
      const owner = stack().deployer.toLowerCase();
      const res = await get('/v4/tokens/balances', { chainId, userAddress: owner });
      // A wallet's own on-chain state: revalidated on every use, as /v4/users/* (an approval shows once mined).
      expect(res.headers['cache-control']).to.equal('public, no-cache');
      const body = res.body as Balance[];
      const whitelist = ((await get(`/v4/tokens/reward/${chainId}`)).body as { address: string }[]).map(
        (t) => t.address,
      );
      expect(body.map((b) => b.address).sort()).to.deep.equal([...whitelist].sort());
      const [blockNumber] = new Set(body.map((b) => b.blockNumber));
      expect(new Set(body.map((b) => b.blockNumber)).size).to.equal(1);
      for (const b of body) expect(b.balance).to.equal((await balanceAt(b.address, owner, blockNumber!)).toString());
      expect(body.some((b) => b.balance !== '0')).to.equal(true);
    });

    it('reads named tokens (hosted `additionalTokenAddresses[]` too), describing unstored ones and leaving out non-tokens', async function () {
      const owner = stack().deployer.toLowerCase();
      const rewardToken = stack().tokens.rewards[1]!.address.toLowerCase();
      const unstored = demo.seeded.markets[0]!.address.toLowerCase();
      await demo.h.deps.pg.query('DELETE FROM tokens WHERE chain_id = $1 AND address = $2', [chainId, unstored]);
      const res = await demo.h
        .request()
        .get(
          `/v4/tokens/balances?chainId=${chainId}&userAddress=${owner}&tokenAddress=${rewardToken}&additionalTokenAddresses[]=${unstored}&additionalTokenAddresses[]=${stack().distributor}`,
        )
        .expect(200);
      const body = res.body as Balance[];
      expect(body.map((b) => b.address)).to.deep.equal([rewardToken, unstored]);
      expect(body[1]!.id).to.equal(`tmp-${chainId}-${unstored}`);
      expect(body[1]!.symbol).to.equal(demo.seeded.markets[0]!.symbol);
      for (const b of body) expect(b.balance).to.equal((await balanceAt(b.address, owner, b.blockNumber)).toString());
    });

    it("reads the native token's balance with eth_getBalance at the same block", async function () {
      const owner = stack().deployer.toLowerCase();
      const native = '0x0000000000000000000000000000000000000000';
      const rewardToken = stack().tokens.rewards[0]!.address.toLowerCase();
      const alone = (await get('/v4/tokens/balances', { chainId, userAddress: owner, tokenAddress: native }))
        .body as Balance[];
      expect(alone.map((b) => b.address)).to.deep.equal([native]);
      const atBlock = await chain().publicClient.getBalance({
        address: owner as Address,
        blockNumber: BigInt(alone[0]!.blockNumber),
      });
      expect(alone[0]!.balance).to.equal(atBlock.toString());
      expect(atBlock > 0n).to.equal(true);
      const both = (
        await get('/v4/tokens/balances', {
          chainId,
          userAddress: owner,
          tokenAddress: native,
          additionalTokenAddresses: rewardToken,
        })
      ).body as Balance[];
      expect(both.map((b) => b.address)).to.deep.equal([native, rewardToken]);
      expect(new Set(both.map((b) => b.blockNumber)).size).to.equal(1);
      expect(both[1]!.balance).to.equal((await balanceAt(rewardToken, owner, both[1]!.blockNumber)).toString());
    });

    it('names the field of a balances request it refuses, and answers 503 when the node fails', async function () {
      const owner = stack().deployer;
      expect(fieldsOf((await get('/v4/tokens/balances', { chainId }, 400)).body)).to.deep.equal(['userAddress']);
      expect(
        fieldsOf((await get('/v4/tokens/balances', { chainId: 999, userAddress: owner }, 400)).body),
      ).to.deep.equal(['chainId']);
      const many = Array.from({ length: 101 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
      const tooMany = await get(
        '/v4/tokens/balances',
        { chainId, userAddress: owner, additionalTokenAddresses: many },
        400,
      );
      expect(fieldsOf(tooMany.body)).to.deep.equal(['additionalTokenAddresses']);
      const config = demo.h.config;
      const broken = createChainClients({
        chains: config.chains.map((c) => ({ ...c, rpcUrl: 'http://127.0.0.1:9' })),
        indexer: { ...config.indexer, rpcRetries: 0, rpcTimeoutMs: 2000 },
      });
      const app = demo.h.createApp({ config, rpc: broken });
      const down = await supertest(app.callback())
        .get('/v4/tokens/balances')
        .query({ chainId, userAddress: owner })
        .expect(503);
      expect(down.headers['content-type']).to.match(/application\/problem\+json/);
      const token = (await demo.h.deps.pg.query<{ id: string }>(`SELECT id FROM tokens WHERE symbol = 'RWD'`)).rows[0]!;
      await supertest(app.callback()).get(`/v4/tokens/${token.id}/allowance/${owner}/${owner}`).expect(503);
    });

    it('reads an allowance equal to allowance() at the block it names, by stored or temporary id', async function () {
      const { deployer, distributionCreator, tokens } = stack();
      const { rows } = await demo.h.deps.pg.query<{ id: string; address: string }>(
        'SELECT id, address FROM tokens WHERE chain_id = $1 AND address = $2',
        [chainId, tokens.rewards[1]!.address.toLowerCase()],
      );
      const token = rows[0]!;
      const res = await get(`/v4/tokens/${token.id}/allowance/${deployer}/${distributionCreator}`);
      expect(res.headers['cache-control']).to.equal('public, no-cache');
      const body = res.body;
      const direct = await chain().publicClient.readContract({
        address: token.address as Address,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [deployer, distributionCreator],
        blockNumber: BigInt(body.blockNumber),
      });
      expect(body).to.deep.include({
        tokenId: token.id,
        chainId,
        address: token.address,
        owner: deployer.toLowerCase(),
        spender: distributionCreator.toLowerCase(),
        allowance: direct.toString(),
      });
      expect(body.allowance).to.equal(maxUint256.toString());
      const tmp = `tmp-${chainId}-${token.address}`;
      const none = (await get(`/v4/tokens/${tmp}/allowance/${distributionCreator}/${deployer}/`)).body;
      expect(none.allowance).to.equal('0');
      await get(`/v4/tokens/99999999/allowance/${deployer}/${deployer}`, {}, 404);
      const notToken = await get(
        `/v4/tokens/tmp-${chainId}-${stack().distributor}/allowance/${deployer}/${deployer}`,
        {},
        422,
      );
      expect(fieldsOf(notToken.body)).to.deep.equal(['id']);
      expect(fieldsOf((await get(`/v4/tokens/${token.id}/allowance/0x12/${deployer}`, {}, 400)).body)).to.deep.equal([
        'owner',
      ]);
    });
  });
});
