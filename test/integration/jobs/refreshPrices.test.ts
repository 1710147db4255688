import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Address } from 'viem';
import {
  createCampaigns,
  encodeErc20CampaignData,
  getLatestTimestamp,
  mine,
  setNextBlockTimestamp,
} from '../../../contracts/actions.js';
import { priceFeedAbi } from '../../../contracts/artifacts/index.js';
import { createDevnetClients } from '../../../contracts/clients.js';
import { findFreePort } from '../../../contracts/devnet.js';
import { toServedPrice } from '../../../domain/prices.js';
import { tokenDbId } from '../../../domain/ids.js';
import { createChainClients } from '../../../internal/rpc.js';
import { loadTokenPrices } from '../../../domain/tables/prices.js';
import { upsertHourlyPrices, upsertPriceHistory } from '../../../indexer/store/prices.js';
import { upsertTokens } from '../../../indexer/store/tokens.js';
import { withTransaction } from '../../../internal/pg.js';
import { refreshPrices } from '../../../jobs/refreshPrices.js';
import { runJob } from '../../../jobs/runJob.js';
import type { JobDeps } from '../../../domain/jobs/types.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const DAY = 86_400;

type CoinQuote = { price: unknown; timestamp: unknown };

/**
 * A real local HTTP server speaking the coins API shape (`GET /coins/prices/current/<coin,coin>`).
 * `prices` says what it knows; `failures` are statuses answered to the next requests, one each;
 * `failAlways` answers that status to every request while set; `hangNext` requests get no answer.
 */
async function startPriceApi() {
  const prices = new Map<string, CoinQuote>();
  const requests: string[][] = [];
  const failures: number[] = [];
  const state = { failAlways: 0, hangNext: 0 };
  const server: Server = createServer((req, res) => {
    const match = /^\/coins\/prices\/current\/([^?]+)$/.exec(req.url ?? '');
    if (!match?.[1]) return void res.writeHead(404).end();
    const coins = decodeURIComponent(match[1]).split(',');
    requests.push(coins);
    if (state.hangNext > 0) return void (state.hangNext -= 1); // never answers: the client's deadline must end it
    const failure = state.failAlways || failures.shift();
    if (failure)
      return void res.writeHead(failure, { 'content-type': 'application/json' }).end('{"message":"scripted failure"}');
    const known = coins.filter((c) => prices.has(c.toLowerCase()));
    const body = {
      coins: Object.fromEntries(
        known.map((c) => [c, { ...prices.get(c.toLowerCase()), symbol: 'X', decimals: 18, confidence: 0.99 }]),
      ),
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/coins`,
    prices,
    requests,
    failures,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('jobs/refreshPrices', function () {
  let h: Harness;
  let api: Awaited<ReturnType<typeof startPriceApi>>;
  let deps: JobDeps;
  let rpcUrl: string;
  let chainId: number;
  /** Reward tokens RWD, USDCx, PTS (each with a feed) and targets stTST, TLP (none). */
  let ids: { rwd: string; usdc: string; pts: string; sttst: string; tlp: string };
  let feeds: { rwd: Address; usdc: Address; pts: Address };
  let campaignOf: { rwd: string; usdc: string };

  const coin = (address: string) => `chain-${chainId}:${address.toLowerCase()}`;
  const wallNow = () => Math.floor(Date.now() / 1000);
  const priceRows = async () => {
    const { rows } = await h.apiPg.query<{ token_id: string; price: number; price_source: string; updated_at: Date }>(
      'SELECT token_id, price, price_source, updated_at FROM token_prices ORDER BY token_id',
    );
    return new Map(rows.map((r) => [r.token_id, r]));
  };
  const outboxIds = async () =>
    (
      await h.apiPg.query<{ entity_id: string }>(
        `SELECT entity_id FROM search_outbox WHERE entity = 'campaign' ORDER BY id`,
      )
    ).rows.map((r) => r.entity_id);
  const lastRun = async () =>
    (
      await h.apiPg.query<{ status: string; error: string | null }>(
        `SELECT status, error FROM job_runs WHERE job = 'prices' ORDER BY id DESC LIMIT 1`,
      )
    ).rows[0];
  /** Sets a feed's answer in a block mined at `timestamp` (when given). */
  const setAnswer = async (feed: Address, answer: bigint, timestamp?: number) => {
    const { publicClient, walletClient } = createDevnetClients({ rpcUrl, chainId });
    if (timestamp !== undefined) await setNextBlockTimestamp({ rpcUrl, timestamp });
    const hash = await walletClient.writeContract({
      address: feed,
      abi: priceFeedAbi,
      functionName: 'setAnswer',
      args: [answer],
    });
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).to.equal('success');
  };

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    api = await startPriceApi();
    deps = { ...h.deps, config: { ...h.config, prices: { ...h.config.prices, apiUrl: api.url } } };
    const { devnet, stack } = h.chains[0]!;
    ({ rpcUrl, chainId } = devnet);
    const [rwd, usdc, pts] = stack.tokens.rewards;
    const [sttst, tlp] = stack.tokens.targets;
    ids = {
      rwd: tokenDbId(chainId, rwd!.address),
      usdc: tokenDbId(chainId, usdc!.address),
      pts: tokenDbId(chainId, pts!.address),
      sttst: tokenDbId(chainId, sttst!.address),
      tlp: tokenDbId(chainId, tlp!.address),
    };
    feeds = { rwd: rwd!.priceFeed, usdc: usdc!.priceFeed, pts: pts!.priceFeed };
    await withTransaction(h.deps.pg, (tx) =>
      upsertTokens(
        tx,
        [...stack.tokens.rewards, ...stack.tokens.targets].map((t) => ({
          chainId,
          address: t.address,
          name: t.name,
          symbol: t.symbol,
          decimals: t.decimals,
        })),
      ),
    );
    // The API also knows the tokens that have feeds, at prices that must never win over a feed.
    for (const t of stack.tokens.rewards) api.prices.set(coin(t.address), { price: 999, timestamp: wallNow() });
    api.prices.set(coin(sttst!.address), { price: 1.23, timestamp: wallNow() });

    const now = await getLatestTimestamp({ rpcUrl });
    await createCampaigns({
      rpcUrl,
      chainId,
      stack,
      campaigns: [
        {
          rewardToken: rwd!.address,
          amount: 10n ** 18n,
          campaignType: 1,
          startTimestamp: now + 60,
          duration: DAY,
          campaignData: encodeErc20CampaignData({ targetToken: sttst!.address }),
        },
        {
          rewardToken: usdc!.address,
          amount: 10n ** 8n,
          campaignType: 1,
          startTimestamp: now + 60,
          duration: DAY,
          campaignData: encodeErc20CampaignData({ targetToken: tlp!.address }),
        },
      ],
    });
    // The campaigns job reads ranges up to the headers the blocks job stored.
    expect((await h.runJob('blocks')).status).to.equal('success');
    expect((await h.runJob('campaigns')).status).to.equal('success');
    const { rows } = await h.apiPg.query<{ id: string; reward_token: string }>(
      'SELECT id, reward_token FROM campaigns',
    );
    campaignOf = {
      rwd: rows.find((r) => r.reward_token === rwd!.address.toLowerCase())!.id,
      usdc: rows.find((r) => r.reward_token === usdc!.address.toLowerCase())!.id,
    };
    await h.deps.pg.query('DELETE FROM search_outbox');
  });

  after(async () => {
    await api?.close();
    await h?.close();
  });

  it('records each feed price exactly with its round time, and the API price only for tokens without a feed', async function () {
    const result = await runJob(refreshPrices, deps);
    expect(result.status).to.equal('success');
    if (result.status !== 'success') return;
    expect(result.result.counts).to.include({
      tokens: 5,
      priced: 4,
      unpriced: 1,
      stale: 0,
      priced_onchain_call: 3,
      priced_defillama: 1,
      campaigns: 2,
    });

    const rows = await priceRows();
    expect([...rows.keys()].sort()).to.deep.equal([ids.rwd, ids.usdc, ids.pts, ids.sttst].sort());
    expect(rows.get(ids.rwd)).to.include({ price: 2.5, price_source: 'ONCHAIN_CALL' });
    expect(rows.get(ids.usdc)).to.include({ price: 1, price_source: 'ONCHAIN_CALL' });
    expect(rows.get(ids.pts)).to.include({ price: 0.01, price_source: 'ONCHAIN_CALL' });
    expect(rows.get(ids.sttst)).to.include({ price: 1.23, price_source: 'DEFILLAMA' });

    const { publicClient } = createDevnetClients({ rpcUrl, chainId });
    const [, , , feedUpdatedAt] = await publicClient.readContract({
      address: feeds.rwd,
      abi: priceFeedAbi,
      functionName: 'latestRoundData',
    });
    expect(rows.get(ids.rwd)!.updated_at.getTime(), 'updated_at is the round time, not the fetch time').to.equal(
      Number(feedUpdatedAt) * 1000,
    );

    // Only tokens no feed priced were asked for, in one request of <chainKey>:<address> coins.
    const { targets } = h.chains[0]!.stack.tokens;
    expect(api.requests).to.have.length(1);
    expect([...api.requests[0]!].sort()).to.deep.equal(targets.map((t) => coin(t.address)).sort());

    const loaded = await loadTokenPrices(h.apiPg, Object.values(ids), new Date(), h.config.prices.maxAgeSeconds);
    expect(loaded.size).to.equal(4);
    expect(loaded.get(ids.rwd)).to.deep.equal({
      price: 2.5,
      updatedAt: Number(feedUpdatedAt),
      priceSource: 'ONCHAIN_CALL',
      stale: false,
    });
    expect(loaded.has(ids.tlp)).to.equal(false);
    expect((await outboxIds()).sort()).to.deep.equal([campaignOf.rwd, campaignOf.usdc].sort());
  });

  it('reprices a token when its feed answers anew, widens the day of history and enqueues only its campaigns', async function () {
    await h.deps.pg.query('DELETE FROM search_outbox');
    // Three answers within one UTC day, at fixed block times: the start of the next day + 100 s.
    const t = (Math.floor((await getLatestTimestamp({ rpcUrl })) / DAY) + 1) * DAY + 100;
    for (const [i, answer] of [300_000_000n, 200_000_000n, 220_000_000n].entries()) {
      await setAnswer(feeds.rwd, answer, t + i);
      expect((await runJob(refreshPrices, deps)).status).to.equal('success');
    }
    expect((await priceRows()).get(ids.rwd)).to.deep.include({
      price: 2.2,
      price_source: 'ONCHAIN_CALL',
      updated_at: new Date((t + 2) * 1000),
    });
    const { rows } = await h.apiPg.query(
      'SELECT day::text AS day, open, close, min, max, source FROM token_price_history WHERE token_id = $1 AND day = to_timestamp($2)::date',
      [ids.rwd, t],
    );
    expect(rows).to.deep.equal([
      {
        day: new Date(t * 1000).toISOString().slice(0, 10),
        open: 3,
        close: 2.2,
        min: 2,
        max: 3,
        source: 'ONCHAIN_CALL',
      },
    ]);
    // The same observations folded per UTC hour (token_price_hourly, #33): all three fell in the day's first hour.
    const hourly = await h.apiPg.query(
      'SELECT extract(epoch FROM hour)::int AS hour, open, close, min, max, source FROM token_price_hourly WHERE token_id = $1',
      [ids.rwd],
    );
    expect(hourly.rows.find((r) => r.hour === t - 100)).to.deep.equal({
      hour: t - 100,
      open: 3,
      close: 2.2,
      min: 2,
      max: 3,
      source: 'ONCHAIN_CALL',
    });
    expect(await outboxIds(), 'one entry per repricing, none for the USDCx campaign').to.deep.equal([
      campaignOf.rwd,
      campaignOf.rwd,
      campaignOf.rwd,
    ]);

    const again = await runJob(refreshPrices, deps);
    expect(again.status === 'success' && again.result.counts).to.include({ changed: 0, campaigns: 0 });
    expect(await outboxIds(), 'an unchanged price enqueues nothing').to.have.length(3);
  });

  it('opens a candle at the price with the earliest own time, whatever order the prices arrive in', async function () {
    const day = '2001-02-03';
    const at = (s: number) => new Date(Date.UTC(2001, 1, 3, 5, 0, s));
    const fold = (observations: [number, number][]) =>
      withTransaction(h.deps.pg, async (client) => {
        const rows = observations.map(([s, price]) => ({
          tokenId: ids.rwd,
          day,
          price,
          source: 'test',
          updatedAt: at(s),
        }));
        await upsertPriceHistory(client, rows);
        await upsertHourlyPrices(client, rows);
      });
    const candles = async () =>
      Promise.all(
        [
          `SELECT open, close, min, max FROM token_price_history WHERE token_id = $1 AND day = '${day}'`,
          `SELECT open, close, min, max FROM token_price_hourly WHERE token_id = $1 AND hour = '${day}T05:00:00Z'`,
        ].map(async (sql) => (await h.apiPg.query(sql, [ids.rwd])).rows[0]),
      );
    try {
      // A price of 05:00:50 first, then one of 05:00:10 (a fallback source, late), then 05:00:30.
      for (const observation of [
        [50, 5],
        [10, 4],
        [30, 7],
      ] as [number, number][])
        await fold([observation]);
      const expected = { open: 4, close: 5, min: 4, max: 7 };
      expect(await candles(), 'daily and hourly').to.deep.equal([expected, expected]);
      await fold([[10, 4]]);
      expect(await candles(), 'a replay changes nothing').to.deep.equal([expected, expected]);
      // A candle folded before opened_at existed keeps the open it recorded (as of the day's, hour's start).
      await h.deps.pg.query(
        `UPDATE token_price_history SET opened_at = NULL, open = 9 WHERE token_id = $1 AND day = '${day}'`,
        [ids.rwd],
      );
      await fold([[1, 3]]);
      expect((await candles())[0]).to.deep.equal({ open: 9, close: 5, min: 3, max: 7 });
    } finally {
      await h.deps.pg.query(`DELETE FROM token_price_history WHERE token_id = $1 AND day = '${day}'`, [ids.rwd]);
      await h.deps.pg.query(`DELETE FROM token_price_hourly WHERE token_id = $1 AND hour = '${day}T05:00:00Z'`, [
        ids.rwd,
      ]);
    }
  });

  it('skips a feed answering zero and falls back to the API for that token', async function () {
    const pts = h.chains[0]!.stack.tokens.rewards[2]!;
    api.prices.set(coin(pts.address), { price: 0.5, timestamp: wallNow() });
    await setAnswer(feeds.pts, 0n);
    expect((await runJob(refreshPrices, deps)).status).to.equal('success');
    expect((await priceRows()).get(ids.pts)).to.include({ price: 0.5, price_source: 'DEFILLAMA' });

    await setAnswer(feeds.pts, 1_000_000n);
    expect((await runJob(refreshPrices, deps)).status).to.equal('success');
    expect((await priceRows()).get(ids.pts)).to.include({ price: 0.01, price_source: 'ONCHAIN_CALL' });
  });

  it('keeps an API price stamped two days ago but marks it stale, so the API serves it as null', async function () {
    const twoDaysAgo = wallNow() - 2 * DAY;
    api.prices.set(coin(h.chains[0]!.stack.tokens.targets[0]!.address), { price: 1.5, timestamp: twoDaysAgo });
    const result = await runJob(refreshPrices, deps);
    expect(result.status === 'success' && result.result.counts).to.include({ stale: 1 });

    const loaded = await loadTokenPrices(h.apiPg, [ids.sttst, ids.rwd], new Date(), h.config.prices.maxAgeSeconds);
    expect(loaded.get(ids.sttst)).to.deep.equal({
      price: 1.5,
      updatedAt: twoDaysAgo,
      priceSource: 'DEFILLAMA',
      stale: true,
    });
    expect(loaded.get(ids.rwd)?.stale).to.equal(false);
    expect(toServedPrice(loaded.get(ids.sttst))).to.deep.equal({
      price: null,
      updatedAt: twoDaysAgo,
      priceSource: 'DEFILLAMA',
    });
    const { rows } = await h.apiPg.query(
      'SELECT close FROM token_price_history WHERE token_id = $1 AND day = to_timestamp($2)::date',
      [ids.sttst, twoDaysAgo],
    );
    expect(rows, 'history is filed under the day of the price itself').to.deep.equal([{ close: 1.5 }]);
  });

  it('retries an API answering 500 twice, then succeeds', async function () {
    api.requests.length = 0;
    api.failures.push(500, 500);
    api.prices.set(coin(h.chains[0]!.stack.tokens.targets[0]!.address), { price: 1.75, timestamp: wallNow() });
    expect((await runJob(refreshPrices, deps)).status).to.equal('success');
    expect(api.requests).to.have.length(3);
    expect((await priceRows()).get(ids.sttst)).to.include({ price: 1.75 });
  });

  it('retries 429 (rate limited) like a 5xx', async function () {
    api.requests.length = 0;
    api.failures.push(429);
    expect((await runJob(refreshPrices, deps)).status).to.equal('success');
    expect(api.requests).to.have.length(2);
  });

  it('retries a request that exceeds the API deadline', async function () {
    api.requests.length = 0;
    api.state.hangNext = 1;
    const started = Date.now();
    const result = await runJob(refreshPrices, {
      ...deps,
      config: { ...deps.config, prices: { ...deps.config.prices, apiTimeoutMs: 300 } },
    });
    expect(result.status).to.equal('success');
    expect(api.requests).to.have.length(2);
    expect(Date.now() - started).to.be.within(300, 5000);
  });

  it('fails loudly after its retry bound when the API keeps answering 500, writes nothing, and the next run resumes', async function () {
    api.requests.length = 0;
    api.state.failAlways = 500;
    await setAnswer(feeds.usdc, 101_000_000n);
    try {
      const error = await runJob(refreshPrices, deps).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(Error).with.property('name', 'PriceApiError');
      expect(api.requests, 'first attempt + 3 retries').to.have.length(4);
      const run = await lastRun();
      expect(run?.status).to.equal('failed');
      expect(run?.error).to.equal(
        'price API request for 2 coins failed — caused by: gave up after 4 attempts: price API answered HTTP 500',
      );
      expect((await priceRows()).get(ids.usdc), 'nothing persisted by the failed run').to.include({ price: 1 });
    } finally {
      api.state.failAlways = 0;
    }
    expect((await runJob(refreshPrices, deps)).status).to.equal('success');
    expect((await priceRows()).get(ids.usdc)).to.include({ price: 1.01 });
  });

  it('does not retry a 404: one request, the run fails', async function () {
    api.requests.length = 0;
    api.failures.push(404);
    const error = await runJob(refreshPrices, deps).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(Error);
    expect(api.requests).to.have.length(1);
    expect((await lastRun())?.error).to.equal(
      'price API request for 2 coins failed — caused by: price API answered HTTP 404',
    );
  });

  it('fails loudly when the chain RPC is unreachable after its bounded retries', async function () {
    const deadUrl = `http://127.0.0.1:${await findFreePort()}`;
    const rpc = createChainClients({
      chains: h.config.chains.map((c) => ({ ...c, rpcUrl: deadUrl })),
      indexer: { ...h.config.indexer, rpcTimeoutMs: 1000 },
    });
    const error = await runJob(refreshPrices, { ...deps, rpc }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(Error).with.property('name', 'PriceFeedReadError');
    expect((await lastRun())?.error).to.match(
      /^chain 31337: reading price feeds failed — caused by: HTTP request failed\. fetch failed$/,
    );
  });

  it('skips a feed that cannot be read (no contract there) without failing the run', async function () {
    const tlp = h.chains[0]!.stack.tokens.targets[1]!;
    const chains = h.config.chains.map((c) => ({
      ...c,
      priceFeeds: {
        ...c.priceFeeds,
        [tlp.address.toLowerCase()]: '0x000000000000000000000000000000000000dEaD' as const,
      },
    }));
    const rpc = createChainClients({ chains, indexer: h.config.indexer });
    const result = await runJob(refreshPrices, { ...deps, rpc });
    expect(result.status === 'success' && result.result.counts).to.include({
      priced: 4,
      unpriced: 1,
      priced_onchain_call: 3,
    });
    expect((await priceRows()).has(ids.tlp)).to.equal(false);
  });

  it('asks the API for at most 100 coins per request', async function () {
    const extra = Array.from({ length: 150 }, (_, i) => ({
      chainId,
      address: `0x${(i + 1).toString(16).padStart(40, 'a')}`,
      name: null,
      symbol: `T${i}`,
      decimals: 18,
    }));
    for (const t of extra.slice(0, 120))
      api.prices.set(coin(t.address), { price: 1 + extra.indexOf(t), timestamp: wallNow() });
    await withTransaction(h.deps.pg, (tx) => upsertTokens(tx, extra));
    api.requests.length = 0;
    try {
      const result = await runJob(refreshPrices, deps);
      expect(api.requests.map((r) => r.length)).to.deep.equal([100, 52]);
      expect(new Set(api.requests.flat()).size, 'each coin asked once').to.equal(152);
      expect(result.status === 'success' && result.result.counts).to.include({
        tokens: 155,
        priced: 124,
        priced_defillama: 121,
      });
      expect(
        (await loadTokenPrices(h.apiPg, [tokenDbId(chainId, extra[119]!.address)], new Date(), 3600)).get(
          tokenDbId(chainId, extra[119]!.address),
        )?.price,
      ).to.equal(120);
    } finally {
      await h.deps.pg.query('DELETE FROM tokens WHERE chain_id = $1 AND address = ANY($2::text[])', [
        chainId,
        extra.map((t) => t.address),
      ]);
    }
  });

  it('marks feed prices stale when the feeds are not updated while chain time moves on', async function () {
    const later = (await getLatestTimestamp({ rpcUrl })) + 2 * DAY;
    await mine({ rpcUrl, timestamp: later });
    await h.deps.pg.query('DELETE FROM search_outbox');
    expect((await runJob(refreshPrices, deps)).status).to.equal('success');
    const fed = [ids.rwd, ids.usdc, ids.pts];
    const atChainTime = await loadTokenPrices(h.apiPg, fed, new Date(later * 1000), h.config.prices.maxAgeSeconds);
    expect(fed.map((id) => atChainTime.get(id)?.stale)).to.deep.equal([true, true, true]);
    expect(atChainTime.get(ids.rwd)?.price, 'the old price is kept, only flagged').to.equal(2.2);
    expect(await outboxIds(), 'same price, nothing to republish').to.deep.equal([]);
  });
});
