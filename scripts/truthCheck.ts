import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  createPublicClient,
  encodeAbiParameters,
  http,
  keccak256,
  parseAbi,
  parseAbiItem,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';

/**
 * The truth check: from chain state and stored prices alone, recompute what the API serves and
 * list every disagreement. It shares no code with the indexer or the API (its own ABIs, leaf
 * hashing, proof walk, TVL reads and formulas), so a bug there cannot hide itself here.
 *
 * Per configured chain it compares:
 * - roots: the served live root (GET /v4/users/{r}/rewards) with `getMerkleRoot()` and the served
 *   `endOfDisputePeriod` (GET /v4/chains) with `endOfDisputePeriod()`, both read at the block the
 *   roots job has indexed (the API decides on that block's time); GET /v4/roots/live's `live`,
 *   `tree`, `lastTree` and `endOfDisputePeriod` with the Distributor's getters at that block;
 * - reward tokens: GET /v4/tokens/reward/{chainId} with `getValidRewardTokens()` (tokens and their
 *   minimum per hour) at the block the campaigns job has indexed;
 * - proofs: every served leaf of the live root (up to `maxRecipients` recipients) hashes with its
 *   served proof to that on-chain root, and its served `claimed` equals `claimed(user, token)` at the
 *   block the claims job has indexed;
 * - campaigns: for every campaign created on chain (NewCampaign logs, then `campaign(id)` for its
 *   current parameters), the served amount, start, end, dailyRewards and APR, recomputed at the
 *   instant of the served computation (`campaignStatus.processingStarted`): a campaign distributes
 *   only inside [start, end); dailyRewards = amount / duration in days × stored price of the reward
 *   token (none when missing or older than `priceMaxAgeSeconds`); APR = dailyRewards × 365 / TVL × 100;
 * - opportunities: every opportunity of the chain (listed by GET /v4/opportunities, and those the
 *   campaigns name), its served TVL within 0.5 % of the protocol contract's own figure read on chain
 *   now × the stored price of each token: a CLAMM Uniswap V3 pool's balances of token0 and token1
 *   (none when the identifier is not a pool), a MORPHO market id's `market(id).totalSupplyAssets` of
 *   its loan token on the chain's Morpho Blue, a UNISWAP_V4 pool id's reserves in the chain's PoolManager
 *   (v4Reserves: its own reading, not the indexer's tick walk: every range's net liquidity summed from
 *   the pool's ModifyLiquidity events, valued at the current price read from slot0 by extsload, with
 *   its own floating-point TickMath; the two currencies from the pool's Initialize event; fees owed to
 *   positions are not counted, the demo pools never swap), else an ERC4626 vault's totalAssets or the identifier's
 *   totalSupply; dailyRewards as the sum of its campaigns' figures recomputed at the opportunity's own
 *   instant (`aprRecord.timestamp`: its document and its campaigns' are written apart), and APR as that
 *   dailyRewards × 365 / TVL × 100 (a percentage, as computeMetrics defines it), within 0.5 % too
 *   (the TVL is read later than the service read it); campaign APRs likewise;
 * - distributed (#33): GET /v4/rewards/total/distributed/by-tokens (test tokens included, private
 *   campaigns not: an anonymous caller's view, from the facet rollup when it is fresh) per token, with
 *   what each counted root (verified, not revoked, up to the on-chain live root) added to the stored
 *   breakdowns of the indexed public campaigns since the counted root before it, at the token's
 *   daily close of the root's day (distributedTruth).
 * Usage: `tsx scripts/truthCheck.ts` with API_URL, DATABASE_URL and CHAINS (as the services read
 * them); prints what it compared and exits 1 on any mismatch.
 */
export type TruthCheckChain = {
  id: number;
  rpcUrl: string;
  distributor: Address;
  distributionCreator: Address;
  startBlock: number;
  /** The chain's Morpho Blue singleton (chain config `morphoBlue`): MORPHO market ids are read there. */
  morphoBlue?: Address;
  /** The chain's Uniswap V4 PoolManager (chain config `uniswapV4PoolManager`): UNISWAP_V4 pool ids are read there. */
  uniswapV4PoolManager?: Address;
};
export type TruthCheckParams = {
  apiUrl: string;
  databaseUrl: string;
  chains: TruthCheckChain[];
  priceMaxAgeSeconds: number;
  maxRecipients?: number;
};
export type TruthCheckReport = {
  /** `protocolTvls`: opportunities whose TVL was read from a protocol contract (a V3 pool, a Morpho Blue market, a V4 pool). */
  compared: Record<
    'roots' | 'proofs' | 'campaigns' | 'opportunities' | 'protocolTvls' | 'rewardTokens' | 'distributed',
    number
  >;
  figures: number;
  mismatches: string[];
};

const distributorAbi = parseAbi([
  'function getMerkleRoot() view returns (bytes32)',
  'function endOfDisputePeriod() view returns (uint48)',
  'function claimed(address user, address token) view returns (uint208 amount, uint48 timestamp, bytes32 merkleRoot)',
  'function tree() view returns (bytes32 merkleRoot, bytes32 ipfsHash)',
  'function lastTree() view returns (bytes32 merkleRoot, bytes32 ipfsHash)',
]);
const whitelistAbi = parseAbi([
  'struct RewardTokenAmounts { address token; uint256 minimumAmountPerEpoch; }',
  'function getValidRewardTokens() view returns (RewardTokenAmounts[])',
]);
const creatorAbi = parseAbi([
  'struct CampaignParameters { bytes32 campaignId; address creator; address rewardToken; uint256 amount; uint32 campaignType; uint32 startTimestamp; uint32 duration; bytes campaignData; }',
  'function getLatestCampaignParams(bytes32 _campaignId) view returns (CampaignParameters)',
]);
const newCampaignEvent = parseAbiItem(
  'event NewCampaign((bytes32 campaignId, address creator, address rewardToken, uint256 amount, uint32 campaignType, uint32 startTimestamp, uint32 duration, bytes campaignData) campaign)',
);
const tokenAbi = parseAbi([
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function asset() view returns (address)',
  'function totalAssets() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
]);
const poolAbi = parseAbi(['function token0() view returns (address)', 'function token1() view returns (address)']);
const morphoAbi = parseAbi([
  'function market(bytes32 id) view returns (uint128 totalSupplyAssets, uint128 totalSupplyShares, uint128 totalBorrowAssets, uint128 totalBorrowShares, uint128 lastUpdate, uint128 fee)',
  'function idToMarketParams(bytes32 id) view returns (address loanToken, address collateralToken, address oracle, address irm, uint256 lltv)',
]);

const poolManagerAbi = parseAbi(['function extsload(bytes32 slot) view returns (bytes32)']);
const v4InitializeEvent = parseAbiItem(
  'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
);
const v4ModifyLiquidityEvent = parseAbiItem(
  'event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
);

/**
 * A Uniswap V4 pool's reserves from the PoolManager's own records: its currencies (Initialize event),
 * its current sqrt price (slot0 in `pools[id]`, mapping slot 6 of v4-core 1.0.2's PoolManager, read
 * by extsload) and each range's net liquidity (ModifyLiquidity events), each range worth
 * amount0 = L(√B − √P)/(√P·√B) and amount1 = L(√P − √A) with √P clamped into [√A, √B] and
 * √(price at tick t) = 1.0001^(t/2). Null when the pool was never initialized.
 */
async function v4Reserves(client: PublicClient, manager: Address, poolId: Hex, fromBlock: bigint) {
  const [init] = await client.getLogs({
    address: manager,
    event: v4InitializeEvent,
    args: { id: poolId },
    fromBlock,
    toBlock: 'latest',
  });
  if (!init) return null;
  const slot0 = await client.readContract({
    address: manager,
    abi: poolManagerAbi,
    functionName: 'extsload',
    args: [keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [poolId, 6n]))],
  });
  const sP = Number(BigInt(slot0) & ((1n << 160n) - 1n)) / 2 ** 96;
  const ranges = new Map<string, bigint>();
  for (const l of await client.getLogs({
    address: manager,
    event: v4ModifyLiquidityEvent,
    args: { id: poolId },
    fromBlock,
    toBlock: 'latest',
  })) {
    const key = `${l.args.tickLower}:${l.args.tickUpper}`;
    ranges.set(key, (ranges.get(key) ?? 0n) + l.args.liquidityDelta!);
  }
  let [amount0, amount1] = [0, 0];
  for (const [key, liquidity] of ranges) {
    const [sA, sB] = key.split(':').map((t) => 1.0001 ** (Number(t) / 2)) as [number, number];
    const s = Math.min(Math.max(sP, sA), sB);
    amount0 += (Number(liquidity) * (sB - s)) / (s * sB);
    amount1 += Number(liquidity) * (s - sA);
  }
  return [
    { token: init.args.currency0!, amount: BigInt(Math.floor(amount0)) },
    { token: init.args.currency1!, amount: BigInt(Math.floor(amount1)) },
  ];
}

type Served = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** USD figures are floats: equal within 1e-9 relative (exact values such as amounts and times are compared as strings). */
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
/**
 * Figures that depend on a TVL: within 0.5 % relative (#42), since the chain is read after the service
 * read it (interest accrued, a position moved); both zero, or both under a millionth of a dollar, agree.
 */
const TVL_TOLERANCE = 0.005;
const closeTvl = (a: number, b: number) =>
  Math.abs(a - b) <= Math.max(TVL_TOLERANCE * Math.max(Math.abs(a), Math.abs(b)), 1e-6);
const units = (amount: bigint, decimals: number) => Number(amount) / 10 ** decimals;

/** keccak256(abi.encode(user, token, amount)), folded with the proof by sorted pairs (docs/contracts.md#reward-tree). */
function rootOfProof(user: Address, token: Address, amount: bigint, proof: Hex[]): Hex {
  let h = keccak256(
    encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint256' }], [user, token, amount]),
  );
  for (const p of proof)
    h = BigInt(h) < BigInt(p) ? keccak256(`0x${h.slice(2)}${p.slice(2)}`) : keccak256(`0x${p.slice(2)}${h.slice(2)}`);
  return h;
}

/**
 * Per token, what the counted roots of `chainId` up to `liveRoot` distributed to the indexed public
 * campaigns: each root's stored breakdowns (reward_breakdowns) summed per campaign and token, minus
 * the counted root before it (a campaign gone from a tree counts its removal), in units and in USD at
 * the token's daily close on or before the root's UTC day (unpriced: 0).
 */
async function distributedTruth(
  db: pg.Client,
  chainId: number,
  liveRoot: string,
): Promise<{ token: string; amount: string; usd: number }[]> {
  const { rows } = await db.query<{ token: string; amount: string; usd: number }>(
    `WITH counted AS (
       SELECT r.root, r.timestamp, lag(r.root) OVER (ORDER BY r.block_number, r.log_index) AS prev,
         (r.block_number, r.log_index) <= (SELECT block_number, log_index FROM roots
           WHERE chain_id = $1 AND root = $2 AND NOT revoked ORDER BY block_number DESC LIMIT 1) AS upto
       FROM roots r JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root AND t.status = 'verified'
       WHERE r.chain_id = $1 AND NOT r.revoked),
     sums AS (SELECT root, lower(campaign_id) AS campaign_id, lower(token) AS token, sum(amount) AS amount
       FROM reward_breakdowns WHERE chain_id = $1 GROUP BY 1, 2, 3),
     deltas AS (
       SELECT c.timestamp, d.campaign_id, d.token, coalesce(d.n, 0) - coalesce(d.o, 0) AS delta
       FROM counted c CROSS JOIN LATERAL (
         SELECT campaign_id, token, n.amount AS n, o.amount AS o
         FROM (SELECT campaign_id, token, amount FROM sums WHERE root = c.root) n
         FULL JOIN (SELECT campaign_id, token, amount FROM sums WHERE root = c.prev) o USING (campaign_id, token)) d
       WHERE c.upto AND coalesce(d.n, 0) <> coalesce(d.o, 0)),
     kept AS (
       SELECT d.* FROM deltas d WHERE EXISTS (
         SELECT 1 FROM campaigns k WHERE k.distribution_chain_id = $1 AND lower(k.campaign_id) = d.campaign_id
           AND NOT EXISTS (SELECT 1 FROM campaign_privacy pv WHERE pv.campaign_db_id = k.id AND pv.is_private)))
     SELECT d.token, sum(d.delta)::text AS amount,
       coalesce(sum(d.delta::float8 / 10 ^ coalesce(tk.decimals, 18) * px.close), 0)::float8 AS usd
     FROM kept d
     LEFT JOIN tokens tk ON tk.chain_id = $1 AND lower(tk.address) = d.token
     LEFT JOIN LATERAL (SELECT h.close FROM token_price_history h WHERE h.token_id = tk.id
       AND h.day <= (to_timestamp(d.timestamp) AT TIME ZONE 'UTC')::date ORDER BY h.day DESC LIMIT 1) px ON true
     GROUP BY d.token ORDER BY d.token`,
    [chainId, liveRoot],
  );
  return rows;
}

export async function truthCheck(p: TruthCheckParams): Promise<TruthCheckReport> {
  const db = new pg.Client({ connectionString: p.databaseUrl });
  await db.connect();
  const compared = {
    roots: 0,
    proofs: 0,
    campaigns: 0,
    opportunities: 0,
    protocolTvls: 0,
    rewardTokens: 0,
    distributed: 0,
  };
  let figures = 0;
  const mismatches: string[] = [];
  const expectEqual = (what: string, served: unknown, truth: unknown, near = close) => {
    figures += 1;
    const same =
      typeof served === 'number' && typeof truth === 'number'
        ? near(served, truth)
        : String(served).toLowerCase() === String(truth).toLowerCase();
    if (!same) mismatches.push(`${what}: served ${String(served)}, truth ${String(truth)}`);
  };
  const get = async (path: string, query: Record<string, string | number | boolean> = {}): Promise<Served> => {
    const url = new URL(`/v4${path}`, p.apiUrl);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    const res = await fetch(url);
    if (!res.ok) throw new Error(`GET ${url.pathname}${url.search}: ${res.status}`);
    return res.json() as Promise<Served>;
  };
  const cursor = async (job: string, chainId: number) =>
    (
      await db.query<{ b: string }>('SELECT block_number::text AS b FROM cursors WHERE job = $1 AND chain_id = $2', [
        job,
        chainId,
      ])
    ).rows[0]?.b;
  /** The stored price of a token at `at` (Unix s), or null when missing or older than the allowed age. */
  const priceAt = async (chainId: number, address: string, at: number): Promise<number | null> => {
    const { rows } = await db.query<{ price: number; updated: string }>(
      `SELECT p.price, extract(epoch FROM p.updated_at)::float8::text AS updated FROM token_prices p JOIN tokens t ON t.id = p.token_id
       WHERE t.chain_id = $1 AND t.address = $2`,
      [chainId, address.toLowerCase()],
    );
    const row = rows[0];
    return row && at - Number(row.updated) <= p.priceMaxAgeSeconds ? row.price : null;
  };

  try {
    for (const chain of p.chains) {
      const client = createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient;
      const read = <T>(args: Parameters<PublicClient['readContract']>[0]) => client.readContract(args) as Promise<T>;

      // Roots and proofs, at the blocks the jobs have indexed.
      const rootsBlock = await cursor('roots', chain.id);
      if (rootsBlock !== undefined) {
        const blockNumber = BigInt(rootsBlock);
        const onchainRoot = (
          await read<Hex>({
            address: chain.distributor,
            abi: distributorAbi,
            functionName: 'getMerkleRoot',
            blockNumber,
          })
        ).toLowerCase() as Hex;
        const end = Number(
          await read<number>({
            address: chain.distributor,
            abi: distributorAbi,
            functionName: 'endOfDisputePeriod',
            blockNumber,
          }),
        );
        const chains = await get('/chains', { test: true });
        expectEqual(
          `chain ${chain.id} endOfDisputePeriod`,
          String(
            (chains as { id: number; endOfDisputePeriod: number }[]).find((c) => c.id === chain.id)?.endOfDisputePeriod,
          ),
          String(end),
        );
        compared.roots += 1;
        // GET /v4/roots/live (#33): the Distributor's getters at the same block.
        const live = ((await get('/roots/live')) as Record<string, Served>)[String(chain.id)];
        const [tree] = await read<[Hex, Hex]>({
          address: chain.distributor,
          abi: distributorAbi,
          functionName: 'tree',
          blockNumber,
        });
        const [lastTree] = await read<[Hex, Hex]>({
          address: chain.distributor,
          abi: distributorAbi,
          functionName: 'lastTree',
          blockNumber,
        });
        expectEqual(`chain ${chain.id} /roots/live live`, live?.['live'], onchainRoot);
        expectEqual(`chain ${chain.id} /roots/live tree`, live?.['tree'], tree);
        expectEqual(`chain ${chain.id} /roots/live lastTree`, live?.['lastTree'], lastTree);
        expectEqual(
          `chain ${chain.id} /roots/live endOfDisputePeriod`,
          String(live?.['endOfDisputePeriod']),
          String(end),
        );
        // What the live roots distributed (#33), per token, from the stored trees alone.
        const truth = await distributedTruth(db, chain.id, onchainRoot);
        const servedTokens = (await get('/rewards/total/distributed/by-tokens', {
          distributionChainIds: chain.id,
          test: true,
        })) as { address: string; amount: string; usd: number }[];
        expectEqual(`chain ${chain.id} distributed token count`, servedTokens.length, truth.length);
        for (const t of truth) {
          const served = servedTokens.find((x) => x.address === t.token);
          expectEqual(`chain ${chain.id} distributed amount of ${t.token}`, served?.amount, t.amount);
          expectEqual(`chain ${chain.id} distributed usd of ${t.token}`, served?.usd, t.usd);
          compared.distributed += 1;
        }
        const claimsBlock = await cursor('claims', chain.id);
        const { rows } = await db.query<{ recipient: string }>(
          'SELECT DISTINCT recipient FROM rewards WHERE chain_id = $1 AND root = $2 ORDER BY recipient LIMIT $3',
          [chain.id, onchainRoot, p.maxRecipients ?? 100],
        );
        for (const { recipient } of rows) {
          const served = (await get(`/users/${recipient}/rewards`, {
            chainId: chain.id,
            breakdownPage: 0,
            test: true,
          })) as { rewards: Served[] }[];
          for (const r of served[0]?.rewards ?? []) {
            const token = r['token'].address as Address;
            expectEqual(`chain ${chain.id} live root served to ${recipient}`, r['root'], onchainRoot);
            expectEqual(
              `chain ${chain.id} proof of ${recipient}/${token}`,
              rootOfProof(recipient as Address, token, BigInt(r['amount']), r['proofs']),
              onchainRoot,
            );
            if (claimsBlock !== undefined) {
              const [claimed] = await read<[bigint, number, Hex]>({
                address: chain.distributor,
                abi: distributorAbi,
                functionName: 'claimed',
                args: [recipient as Address, token],
                blockNumber: BigInt(claimsBlock),
              });
              expectEqual(`chain ${chain.id} claimed of ${recipient}/${token}`, r['claimed'], claimed.toString());
            }
            compared.proofs += 1;
          }
        }
      }

      // Reward tokens (#33): the DistributionCreator's whitelist at the block the campaigns job has indexed.
      const campaignsBlock = await cursor('campaigns', chain.id);
      if (campaignsBlock !== undefined) {
        const whitelist = await read<readonly { token: Address; minimumAmountPerEpoch: bigint }[]>({
          address: chain.distributionCreator,
          abi: whitelistAbi,
          functionName: 'getValidRewardTokens',
          blockNumber: BigInt(campaignsBlock),
        });
        const served = new Map(
          ((await get(`/tokens/reward/${chain.id}`)) as Served[]).map((t) => [
            t['address'] as string,
            t['minimumAmountPerHour'],
          ]),
        );
        expectEqual(`chain ${chain.id} reward token count`, served.size, whitelist.length);
        for (const t of whitelist)
          expectEqual(
            `chain ${chain.id} minimumAmountPerHour of ${t.token}`,
            served.get(t.token.toLowerCase()),
            t.minimumAmountPerEpoch.toString(),
          );
        compared.rewardTokens += whitelist.length;
      }

      // Campaigns: created on chain, current parameters from campaign(id).
      const logs = await client.getLogs({
        address: chain.distributionCreator,
        event: newCampaignEvent,
        fromBlock: BigInt(chain.startBlock),
        toBlock: 'latest',
      });
      /** Per campaign: its daily rewards (USD) at any time `at`, from the chain's parameters and the stored price then. */
      const recomputed = new Map<string, { dailyAt: (at: number) => Promise<number> }>();
      const tvlCache = new Map<string, number | null>();
      const decimalsCache = new Map<string, number>();
      const decimalsOf = async (token: Address): Promise<number | null> => {
        const key = token.toLowerCase();
        if (!decimalsCache.has(key)) {
          const d = await read<number>({ address: token, abi: tokenAbi, functionName: 'decimals' }).catch(() => null);
          if (d === null) return null;
          decimalsCache.set(key, Number(d));
        }
        return decimalsCache.get(key)!;
      };
      /** USD value of token amounts at stored prices; null when any amount, decimals or price is unknown. */
      const valueOf = async (amounts: { token: Address; amount: bigint | null }[], at: number) => {
        let usd = 0;
        for (const { token, amount } of amounts) {
          const [decimals, price] = [await decimalsOf(token), await priceAt(chain.id, token, at)];
          if (amount === null || decimals === null || price === null) return null;
          usd += units(amount, decimals) * price;
        }
        return usd;
      };
      const balanceOf = (token: Address, holder: Address) =>
        read<bigint>({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [holder] }).catch(() => null);
      /** What the protocol contract says the opportunity holds, read on chain now, in USD at `at`. */
      const tvlOf = async (type: string, identifier: string, at: number): Promise<number | null> => {
        const key = `${type}:${identifier}`;
        if (tvlCache.has(key)) return tvlCache.get(key)!;
        let tvl: number | null = null;
        const isAddress = /^0x[0-9a-f]{40}$/i.test(identifier);
        if (type === 'CLAMM') {
          // A Uniswap V3 pool holds its liquidity providers' deposits (every position, and fees) in its two tokens.
          const pool = identifier as Address;
          const tokens = isAddress
            ? await Promise.all(
                (['token0', 'token1'] as const).map((functionName) =>
                  read<Address>({ address: pool, abi: poolAbi, functionName }).catch(() => null),
                ),
              )
            : [null];
          if (tokens.every((t): t is Address => t !== null))
            tvl = await valueOf(
              await Promise.all(tokens.map(async (token) => ({ token, amount: await balanceOf(token, pool) }))),
              at,
            );
        } else if (type === 'MORPHO' && /^0x[0-9a-f]{64}$/i.test(identifier)) {
          // A Morpho Blue market's lenders' deposits: totalSupplyAssets of its loan token.
          if (chain.morphoBlue) {
            const id = identifier as Hex;
            const [market, params] = await Promise.all([
              read<readonly bigint[]>({
                address: chain.morphoBlue,
                abi: morphoAbi,
                functionName: 'market',
                args: [id],
              }).catch(() => null),
              read<readonly Address[]>({
                address: chain.morphoBlue,
                abi: morphoAbi,
                functionName: 'idToMarketParams',
                args: [id],
              }).catch(() => null),
            ]);
            if (market && params && market[4]) tvl = await valueOf([{ token: params[0]!, amount: market[0]! }], at);
          }
        } else if (type === 'UNISWAP_V4' && /^0x[0-9a-f]{64}$/i.test(identifier)) {
          // A Uniswap V4 pool's liquidity providers' deposits, held by the PoolManager singleton.
          if (chain.uniswapV4PoolManager) {
            const reserves = await v4Reserves(
              client,
              chain.uniswapV4PoolManager,
              identifier as Hex,
              BigInt(chain.startBlock),
            ).catch(() => null);
            if (reserves) tvl = await valueOf(reserves, at);
          }
        } else if (isAddress) {
          const address = identifier as Address;
          const [asset, assets] = await Promise.all([
            read<Address>({ address, abi: tokenAbi, functionName: 'asset' }).catch(() => null),
            read<bigint>({ address, abi: tokenAbi, functionName: 'totalAssets' }).catch(() => null),
          ]);
          tvl =
            asset !== null && assets !== null
              ? await valueOf([{ token: asset, amount: assets }], at)
              : await valueOf(
                  [
                    {
                      token: address,
                      amount: await read<bigint>({ address, abi: tokenAbi, functionName: 'totalSupply' }).catch(
                        () => null,
                      ),
                    },
                  ],
                  at,
                );
        }
        tvlCache.set(key, tvl);
        return tvl;
      };
      const opportunityIds = new Set<string>();
      for (const id of [...new Set(logs.map((l) => l.args.campaign!.campaignId))]) {
        const c = await read<{ rewardToken: Address; amount: bigint; startTimestamp: number; duration: number }>({
          address: chain.distributionCreator,
          abi: creatorAbi,
          // The override when one was made (its window is the campaign's), else the original.
          functionName: 'getLatestCampaignParams',
          args: [id],
        });
        const served = await get(`/campaigns/${chain.id}-${id}`).catch(() => null);
        if (!served) continue; // not served (private, or not indexed yet): nothing served to compare
        const start = Number(c.startTimestamp);
        const end = start + Number(c.duration);
        const at = Number(served['campaignStatus']?.processingStarted ?? 0);
        expectEqual(`campaign ${id} amount`, served['amount'], c.amount.toString());
        expectEqual(`campaign ${id} startTimestamp`, served['startTimestamp'], String(start));
        expectEqual(`campaign ${id} endTimestamp`, served['endTimestamp'], String(end));
        const rewardDecimals = await decimalsOf(c.rewardToken);
        if (rewardDecimals === null) throw new Error(`reward token ${c.rewardToken} has no decimals()`);
        const dailyAt = async (t: number) => {
          const price = start <= t && t < end ? await priceAt(chain.id, c.rewardToken, t) : null;
          return price === null
            ? 0
            : units(c.amount, rewardDecimals) * (86_400 / Math.max(1, Number(c.duration))) * price;
        };
        const inWindow = start <= at && at < end;
        const opportunity = served['opportunityId']
          ? await get(`/opportunities/${served['opportunityId']}`).catch(() => null)
          : null;
        const tvl = opportunity
          ? await tvlOf(String(opportunity['type']), String(opportunity['identifier']), at)
          : null;
        const daily = await dailyAt(at);
        const apr = !inWindow || !tvl ? 0 : (daily * 365 * 100) / tvl;
        expectEqual(`campaign ${id} dailyRewards at ${at}`, served['dailyRewards'], daily);
        expectEqual(`campaign ${id} apr at ${at}`, served['apr'], apr, closeTvl);
        recomputed.set(id.toLowerCase(), { dailyAt });
        if (served['opportunityId']) opportunityIds.add(served['opportunityId']);
        compared.campaigns += 1;
      }

      // Opportunities: every one of the chain, TVL from the protocol contract × stored prices,
      // dailyRewards the sum of its campaigns', APR = dailyRewards × 365 / TVL × 100.
      for (let page = 0; ; page++) {
        const listed = (await get('/opportunities', { chainId: chain.id, test: true, items: 100, page })) as Served[];
        for (const o of listed) opportunityIds.add(String(o['id']));
        if (listed.length < 100) break;
      }
      for (const id of opportunityIds) {
        const o = await get(`/opportunities/${id}/campaigns`, { test: true });
        const campaigns = (o['campaigns'] as Served[]).filter((c) => recomputed.has(c['campaignId'].toLowerCase()));
        const at = Number(o['aprRecord']?.timestamp ?? 0);
        const tvl = (await tvlOf(String(o['type']), String(o['identifier']), at)) ?? 0;
        // Its campaigns' figures at the opportunity's own time (its documents and its campaigns' are
        // written apart: a campaign ending between two metrics runs is not a disagreement).
        const dailies: number[] = [];
        // One at a time: the prices are read on one PostgreSQL connection.
        for (const c of campaigns) dailies.push(await recomputed.get(c['campaignId'].toLowerCase())!.dailyAt(at));
        const daily = dailies.reduce((a, b) => a + b, 0);
        const parts = campaigns.map(
          (c, i) =>
            `${c['campaignId']}: served ${c['dailyRewards']} at ${c['campaignStatus']?.processingStarted}, truth at ${at} ${dailies[i]}`,
        );
        expectEqual(`opportunity ${id} (${o['type']} ${o['identifier']}) tvl`, o['tvl'], tvl, closeTvl);
        expectEqual(`opportunity ${id} dailyRewards at ${at} [${parts.join('; ')}]`, o['dailyRewards'], daily);
        expectEqual(`opportunity ${id} apr`, o['apr'], tvl ? (daily * 365 * 100) / tvl : 0, closeTvl);
        compared.opportunities += 1;
        if (['CLAMM', 'MORPHO', 'UNISWAP_V4'].includes(o['type'])) compared.protocolTvls += 1;
      }
    }
    return { compared, figures, mismatches };
  } finally {
    await db.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { loadConfig } = await import('../internal/config.js');
  const config = loadConfig();
  const report = await truthCheck({
    apiUrl: process.env['API_URL'] ?? 'http://127.0.0.1:3000',
    databaseUrl: config.databaseUrl,
    priceMaxAgeSeconds: config.prices.maxAgeSeconds,
    chains: config.chains.map((c) => ({
      id: c.id,
      rpcUrl: c.rpcUrl,
      distributor: c.distributor,
      distributionCreator: c.distributionCreator,
      startBlock: c.startBlock,
      ...(c.morphoBlue ? { morphoBlue: c.morphoBlue } : {}),
      ...(c.uniswapV4PoolManager ? { uniswapV4PoolManager: c.uniswapV4PoolManager } : {}),
    })),
  });
  console.log(
    `compared ${report.figures} figures: ${JSON.stringify(report.compared)}; ${report.mismatches.length} mismatches`,
  );
  for (const m of report.mismatches) console.log(`  ${m}`);
  process.exit(report.mismatches.length ? 1 : 0);
}
