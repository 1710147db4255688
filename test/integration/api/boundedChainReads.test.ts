import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import supertest from 'supertest';
import { serializeErc6492Signature, zeroHash, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DEPLOYLESS_MULTICALL_GAS } from '../../../api/chain/readChain.js';
import { buildSignInMessage } from '../../../api/routes/auth/siwe.js';
import { encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { jsonRpc } from '../../../contracts/devnet.js';
import type { Config } from '../../../internal/config.js';
import { createChainClients } from '../../../internal/rpc.js';
import { startFlakyRpcProxy, type FlakyRpcProxy } from '../../helpers/flakyRpcProxy.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { answerRpcBody, forwardRpcCall, type RpcCall } from '../../helpers/jsonRpcCalls.js';

/** Runtime code that never stops: JUMPDEST, PUSH1 0, JUMP (issue #43 F1). */
const LOOPING_CODE = '0x5b600056';
const chainId = 31337;

/**
 * Runtime code of an ERC20 stand-in that answers balanceOf(address) with 0 at once and loops on any
 * other selector (name, symbol, decimals) until its gas is spent.
 */
const BALANCE_THEN_LOOP_CODE = '0x60003560e01c6370a0823114601357' + '5b600f56' + '5b60206000f3';

/** Resident memory of a process, in MiB (Linux /proc). */
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** A JSON-RPC forwarder in front of the devnet that records every call the API sends through it. */
async function startRecordingRpc(target: string): Promise<{ url: string; calls: RpcCall[]; close(): Promise<void> }> {
  const calls: RpcCall[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      answerRpcBody(Buffer.concat(chunks).toString('utf8'), (call) => (calls.push(call), forwardRpcCall(target, call)))
        .then((out) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out)))
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('chain reads a request causes are bounded (issue #43 F1)', function () {
  let h: Harness;
  const looping = `0x${'5b'.repeat(20)}` as Address;

  /** The API over `rpcUrl` in front of the devnet, with `chainReads` overriding the defaults. */
  const apiOver = (rpcUrl: string, chainReads: Partial<Config['chainReads']> = {}) => {
    const config: Config = {
      ...h.config,
      chainReads: { ...h.config.chainReads, ...chainReads },
      // Sign-in messages name the devnet, where a contract wallet is asked.
      signIn: { ...h.config.signIn, chainId },
      chains: h.config.chains.map((c) => ({ ...c, rpcUrl })),
    };
    const rpc = createChainClients(config);
    return supertest(h.createApp({ config, rpc }).callback());
  };

  before(async function () {
    h = await createHarness({ chainIds: [chainId] });
    await jsonRpc(h.chains[0]!.devnet.rpcUrl, 'hardhat_setCode', [looping, LOOPING_CODE]);
  });
  after(async () => h?.close());

  it('answers every route naming a looping contract within its deadline, each call gas-limited, the node responsive and its memory flat', async function () {
    const { devnet, stack } = h.chains[0]!;
    const recorder = await startRecordingRpc(devnet.rpcUrl);
    try {
      const api = apiOver(recorder.url);
      const { readGas, callGas, deadlineMs } = h.config.chainReads;
      const owner = stack.deployer.toLowerCase();
      const rewardToken = stack.tokens.rewards[0]!.address.toLowerCase();
      const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
      // A contract wallet's EIP-6492 signature whose factory is the looping contract.
      const wallet = privateKeyToAccount(generatePrivateKey()).address;
      const nonce = await api.get(`/v4/auth/nonce/${wallet}`).expect(200);
      const signature = serializeErc6492Signature({
        address: looping,
        data: '0x12345678',
        signature: await privateKeyToAccount(generatePrivateKey()).signMessage({ message: nonce.body.message }),
      });
      const requests: Record<string, () => supertest.Test> = {
        balances: () =>
          api
            .get('/v4/tokens/balances')
            .query({ chainId, userAddress: owner, tokenAddress: looping, additionalTokenAddresses: rewardToken }),
        allowance: () => api.get(`/v4/tokens/tmp-${chainId}-${looping}/allowance/${owner}/${owner}`),
        search: () => api.get('/v4/tokens').query({ chainId, search: looping }),
        payload: () =>
          api.post('/v4/campaigns/generate-payload').send({
            creatorAddress: stack.deployer,
            rewardToken: looping,
            distributionChainId: chainId,
            startTimestamp: now + 86_400,
            endTimestamp: now + 8 * 86_400,
            campaignsParams: { ERC20: [{ amount: '7000000000000000000000', targetToken: rewardToken }] },
          }),
        decode: () =>
          api.post('/v4/config/decode/args/createCampaign').send({
            distributionChainId: chainId,
            args: {
              campaignId: zeroHash,
              creator: stack.deployer,
              rewardToken: looping,
              amount: '1000',
              campaignType: 1,
              startTimestamp: now + 3600,
              duration: 7200,
              campaignData: encodeErc20CampaignData({ targetToken: rewardToken as Address }),
            },
          }),
        login: () => api.post('/v4/auth/login').send({ address: wallet, message: nonce.body.message, signature }),
      };
      const rssBefore = rssMiB(devnet.pid);
      let done = false;
      let slowestBlockNumberMs = 0;
      const probe = (async () => {
        // The node answers a cheap call at once while the routes are served (Hardhat runs one call at a time).
        while (!done) {
          const started = Date.now();
          await jsonRpc(devnet.rpcUrl, 'eth_blockNumber', [], 30_000);
          slowestBlockNumberMs = Math.max(slowestBlockNumberMs, Date.now() - started);
        }
      })();
      const answers = await Promise.all(
        Object.entries(requests).map(async ([name, send]) => {
          const started = Date.now();
          const res = await send().timeout(deadlineMs + 1_000);
          return { name, res, ms: Date.now() - started };
        }),
      ).finally(() => (done = true));
      await probe;
      const rssAfter = rssMiB(devnet.pid);
      const by = Object.fromEntries(answers.map((a) => [a.name, a]));
      for (const { name, ms } of answers) expect(ms, `${name} answered in ${ms} ms`).to.be.below(deadlineMs);

      expect(by['balances']!.res.status).to.equal(200);
      expect(by['balances']!.res.body.map((b: { address: string }) => b.address)).to.deep.equal([rewardToken]);
      expect(by['allowance']!.res.status).to.equal(422);
      expect(by['allowance']!.res.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['id']);
      expect(by['search']!.res.status).to.equal(200);
      expect(by['search']!.res.body).to.deep.equal([]);
      expect(by['payload']!.res.status, JSON.stringify(by['payload']!.res.body)).to.equal(400);
      expect(by['payload']!.res.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['rewardToken']);
      expect(by['decode']!.res.status, JSON.stringify(by['decode']!.res.body)).to.equal(200);
      expect(by['decode']!.res.body.campaigns[0].rewardToken).to.include({ symbol: null, decimals: null });
      expect(by['login']!.res.status).to.equal(401);
      expect(by['login']!.res.body.errors).to.deep.equal([
        { field: 'signature', message: 'does not match the address' },
      ]);

      // Every call that runs code carries a gas limit: a view's for the looping contract, at most the
      // sign-in check's or the payload's multicall of five DistributionCreator reads otherwise.
      const executing = recorder.calls.filter((c) => c.method === 'eth_call');
      expect(executing.length).to.be.greaterThan(0);
      const multicall = DEPLOYLESS_MULTICALL_GAS + 5n * BigInt(readGas);
      const most = multicall > BigInt(callGas) ? multicall : BigInt(callGas);
      for (const call of executing) {
        const { to, gas } = (call.params?.[0] ?? {}) as { to?: string; gas?: Hex };
        expect(gas, `gas of ${JSON.stringify(call).slice(0, 120)}`).to.be.a('string');
        expect(BigInt(gas!) <= (to?.toLowerCase() === looping ? BigInt(readGas) : most), `${gas} to ${to}`).to.equal(
          true,
        );
      }
      // The looping contract is asked only what each route needs: balanceOf (balances), allowance, and
      // name, symbol, decimals (search, decode); the payload route none of its allowance and balanceOf,
      // as the DistributionCreator's whitelist does not admit it, and the sign-in check is deployless.
      const selectors = executing
        .filter((c) => (c.params?.[0] as { to?: string }).to?.toLowerCase() === looping)
        .map((c) => (c.params?.[0] as { data?: string; input?: string }).data?.slice(0, 10))
        .sort();
      const ERC20 = {
        allowance: '0xdd62ed3e',
        balanceOf: '0x70a08231',
        decimals: '0x313ce567',
        name: '0x06fdde03',
        symbol: '0x95d89b41',
      };
      expect(selectors).to.deep.equal(
        [
          ERC20.balanceOf,
          ERC20.allowance,
          ERC20.name,
          ERC20.symbol,
          ERC20.decimals,
          ERC20.name,
          ERC20.symbol,
          ERC20.decimals,
        ].sort(),
      );
      expect(slowestBlockNumberMs, 'slowest eth_blockNumber meanwhile').to.be.below(2_000);
      expect(rssAfter - rssBefore, `devnet RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MiB`).to.be.below(512);
    } finally {
      await recorder.close();
    }
  });

  it('refuses a sign-in whose nonce was never issued before any chain call (a contract wallet check costs CHAIN_CALL_GAS)', async function () {
    const recorder = await startRecordingRpc(h.chains[0]!.devnet.rpcUrl);
    try {
      const api = apiOver(recorder.url);
      const wallet = privateKeyToAccount(generatePrivateKey()).address;
      // Our own message format and a fresh nonce, but one GET /v4/auth/nonce never issued.
      const { message } = buildSignInMessage({ address: wallet, ...h.config.signIn, chainId });
      const signature = serializeErc6492Signature({
        address: looping,
        data: '0x12345678',
        signature: await privateKeyToAccount(generatePrivateKey()).signMessage({ message }),
      });
      const res = await api.post('/v4/auth/login').send({ address: wallet, message, signature });
      expect(res.status).to.equal(401);
      expect(res.body.errors).to.deep.equal([
        { field: 'message', message: 'nonce is unknown, expired or already used' },
      ]);
      expect(recorder.calls.map((c) => c.method)).to.deep.equal([]);
    } finally {
      await recorder.close();
    }
  });

  it('holds block-timestamp lookups and the claims status head to the chain gate and to one deadline per request', async function () {
    const proxy: FlakyRpcProxy = await startFlakyRpcProxy(h.chains[0]!.devnet.rpcUrl);
    try {
      // No indexed headers: every lookup bisects over the node.
      await h.deps.pg.query('DELETE FROM blocks WHERE chain_id = $1', [chainId]);
      const api = apiOver(proxy.url, { concurrency: 1, queue: 0, deadlineMs: 500 });
      const now = Math.floor(Date.now() / 1000);
      const before = proxy.requests();
      const bounds = await api.get('/v4/block-timestamp/bounds').query({ chainId, timestamp: 1 });
      expect(bounds.status, JSON.stringify(bounds.body)).to.equal(200);
      expect(proxy.requests() - before, 'a bisection reads the node').to.be.greaterThan(1);

      // Five lookups at once while the node holds each of the first requests 1.5 s: one turn, no queue,
      // so four are refused at once (busy) and the one reading ends at its 500 ms deadline.
      proxy.delayNext(5, 1_500);
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => api.get('/v4/block-timestamp/block').query({ chainId, timestamp: now })),
      );
      expect(Date.now() - started, 'answered at the deadline, not at the node’s pace').to.be.below(1_400);
      expect(answers.map((a) => a.status)).to.deep.equal([503, 503, 503, 503, 503]);
      expect(answers.map((a) => a.body.reason).sort()).to.deep.equal(['busy', 'busy', 'busy', 'busy', 'deadline']);
      proxy.heal();
      // The read that met its deadline keeps its turn until its request's hold (the deadline, 500 ms after
      // it was sent) has passed: wait that long, so the next read finds the gate free.
      await new Promise((resolve) => setTimeout(resolve, 700));

      // A bisection whose every step the node answers in 150 ms ends at the one deadline of the request.
      proxy.delayNext(50, 150);
      const slow = Date.now();
      const bisection = await api.get('/v4/block-timestamp/block').query({ chainId, timestamp: now });
      expect(bisection.status).to.equal(503);
      expect(bisection.body).to.include({ reason: 'deadline' });
      expect(Date.now() - slow).to.be.below(1_400);
      proxy.heal();

      // The claims status reads the head in the same bounds: a node slower than the deadline leaves it unknown.
      proxy.delayNext(1, 3_000);
      const status = Date.now();
      const claims = await api.get('/v4/claims/status').query({ chainIds: String(chainId) });
      expect(claims.status).to.equal(200);
      expect(Date.now() - status).to.be.below(1_400);
      expect(claims.body[String(chainId)].sources[0]).to.include({ currentBlock: null, blockDifference: null });
    } finally {
      await proxy.close();
    }
  });

  it('bounds the gas of one request (CHAIN_REQUEST_GAS): 100 looping contracts answer within the deadline and leave the node free', async function () {
    const { devnet } = h.chains[0]!;
    const tokens = Array.from({ length: 100 }, (_, i) => `0x${(0xa000 + i).toString(16).padStart(40, '7')}` as Address);
    for (const t of tokens) await jsonRpc(devnet.rpcUrl, 'hardhat_setCode', [t, BALANCE_THEN_LOOP_CODE]);
    const recorder = await startRecordingRpc(devnet.rpcUrl);
    // In front of the recorder: a node whose answers take 100 ms each, so that the reads below outlast the
    // deadline by construction (on a fast machine the looping calls alone finished within it).
    const slow: FlakyRpcProxy = await startFlakyRpcProxy(recorder.url);
    try {
      const deadlineMs = 1_000;
      const { readGas, requestGas } = h.config.chainReads;
      const api = apiOver(slow.url, { deadlineMs, concurrency: 1, queue: 0 });
      const gasOf = (calls: RpcCall[]) =>
        calls
          .filter((c) => c.method === 'eth_call')
          .reduce((sum, c) => sum + BigInt((c.params?.[0] as { gas: Hex }).gas), 0n);
      const balances = async (named: Address[]) => {
        const before = recorder.calls.length;
        const started = Date.now();
        const res = await api.get('/v4/tokens/balances').query({
          chainId,
          userAddress: named[0],
          tokenAddress: named[0],
          additionalTokenAddresses: named.slice(1).join(','),
        });
        const ms = Date.now() - started;
        // Right after the answer, the node answers a cheap call at once: it is not still running the request's calls.
        const probed = Date.now();
        await jsonRpc(devnet.rpcUrl, 'eth_blockNumber', [], 60_000);
        const probeMs = Date.now() - probed;
        const calls = recorder.calls.slice(before);
        return { res, ms, probeMs, calls };
      };

      // 100 contracts we do not store: up to 400 calls (40M gas) is past the budget, refused before any call.
      const all = await balances(tokens);
      expect(all.probeMs, 'eth_blockNumber right after the answer').to.be.below(1_000);
      expect(all.ms, 'answered within the deadline').to.be.below(deadlineMs);
      expect(gasOf(all.calls) <= BigInt(requestGas), `gas sent: ${gasOf(all.calls)}`).to.equal(true);
      expect(all.res.status, JSON.stringify(all.res.body)).to.equal(400);
      expect(all.res.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['additionalTokenAddresses']);
      expect(all.res.body.errors[0].message).to.match(/CHAIN_REQUEST_GAS.*at most 50 tokens/);
      expect(all.calls.map((c) => c.method)).to.deep.equal([]);

      // 50 of them fit the budget exactly (50 balanceOf, 150 metadata calls of CHAIN_READ_GAS): the reads run
      // in batches of READ_CHUNK_CALLS until the deadline, and the node is free right after the 503.
      slow.delayNext(1_000, 100);
      const half = await balances(tokens.slice(0, 50));
      expect(half.ms, 'answered at the deadline').to.be.below(deadlineMs + 300);
      expect(half.probeMs, 'eth_blockNumber right after the answer').to.be.below(1_000);
      expect(gasOf(half.calls) <= BigInt(requestGas), `gas sent: ${gasOf(half.calls)}`).to.equal(true);
      expect(half.calls.filter((c) => c.method === 'eth_call').length).to.be.at.most(requestGas / readGas);
      expect(half.res.status, JSON.stringify(half.res.body)).to.equal(503);
      expect(half.res.body).to.include({ reason: 'deadline' });
    } finally {
      await slow.close();
      await recorder.close();
    }
  });

  it('refuses a read beyond the chain gate with 503 and Retry-After at once, and ends a read at its deadline', async function () {
    const { devnet, stack } = h.chains[0]!;
    const proxy: FlakyRpcProxy = await startFlakyRpcProxy(devnet.rpcUrl);
    try {
      const owner = stack.deployer;
      const rewardToken = stack.tokens.rewards[0]!.address;
      const balances = (api: ReturnType<typeof apiOver>) => async () => {
        const started = Date.now();
        const res = await api
          .get('/v4/tokens/balances')
          .query({ chainId, userAddress: owner, tokenAddress: rewardToken });
        return { res, ms: Date.now() - started };
      };
      // One read at a time and one waiting: the first read's block number is held 1.5 s by the node.
      const gated = balances(apiOver(proxy.url, { concurrency: 1, queue: 1 }));
      proxy.delayNext(1, 1_500);
      const answers = await Promise.all([gated(), gated(), gated()]);
      const refused = answers.filter((a) => a.res.status === 503);
      expect(answers.map((a) => a.res.status).sort()).to.deep.equal([200, 200, 503]);
      expect(refused[0]!.res.headers['retry-after']).to.equal('1');
      expect(refused[0]!.res.body).to.include({ code: 'SERVICE_UNAVAILABLE', reason: 'busy' });
      expect(refused[0]!.ms, 'refused without waiting').to.be.below(1_000);

      // A node that answers after the deadline: 503 at the deadline, not at the node's pace.
      const late = balances(apiOver(proxy.url, { deadlineMs: 500 }));
      proxy.delayNext(1, 3_000);
      const { res, ms } = await late();
      expect(res.status).to.equal(503);
      expect(res.body).to.include({ reason: 'deadline', service: `the RPC of chain ${chainId}` });
      expect(ms).to.be.below(1_500);

      // The node still runs what a late read sent (its balanceOf, sent 600 ms in, answered after 2.5 s): the
      // read's turn is held past our 503 at 1 s, until the node answers or CHAIN_READ_DEADLINE_MS after the
      // batch was sent, so the next read is refused rather than piling more work on the node.
      const held = balances(apiOver(proxy.url, { deadlineMs: 1_000, concurrency: 1, queue: 0 }));
      proxy.delayNext(1, 600);
      proxy.delayNext(1, 2_500);
      const abandoned = await held();
      const next = await held();
      expect([abandoned.res.body.reason, next.res.body.reason]).to.deep.equal(['deadline', 'busy']);
    } finally {
      await proxy.close();
    }
  });
});
