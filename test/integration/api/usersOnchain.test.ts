import { expect } from 'chai';
import { parseAbi, zeroAddress } from 'viem';
import { distributionCreatorAbi } from '../../../contracts/artifacts/index.js';
import { createDevnetClients, HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { login } from './authFlow.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const USER = '0x976ea74026e726554db657fa54763abd0c3a0aa9';
const OPERATOR = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955';

describe('GET /v4/users/{address} profile and on-chain claim settings', function () {
  let h: Harness;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    await h.deps.pg.query(`INSERT INTO users (address, tags, tier) VALUES ($1, '{vip}', 2)`, [USER]);
  });

  after(async () => h?.close());

  it('serves the profile from the users table, defaults for an unknown wallet', async function () {
    expect((await h.request().get(`/v4/users/${USER}`).expect(200)).body).to.deep.equal({
      address: USER,
      tags: ['vip'],
      creatorId: null,
      tier: 2,
      associated: [],
      blacklistedChainIds: [],
    });
    const other = '0x1111111111111111111111111111111111111111';
    expect((await h.request().get(`/v4/users/${other}/`).expect(200)).body).to.deep.equal({
      address: other,
      tags: [],
      creatorId: null,
      tier: 0,
      associated: [],
      blacklistedChainIds: [],
    });
    await h.request().get('/v4/users/0xnope').expect(400);
  });

  it('reads terms acceptance from the DistributionCreator: true while no message is set', async function () {
    expect((await h.request().get(`/v4/users/${USER}/terms`).query({ chainId: 31337 }).expect(200)).body).to.equal(
      true,
    );
    const bad = await h.request().get(`/v4/users/${USER}/terms`).expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['chainId']);
  });

  it("records a terms acceptance by the wallet's own session for the current message (POST /terms)", async function () {
    const { devnet, stack } = h.chains[0]!;
    const { walletClient, publicClient } = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId });
    const setMessage = async (message: string) => {
      const hash = await walletClient.writeContract({
        address: stack.distributionCreator,
        abi: distributionCreatorAbi,
        functionName: 'setMessage',
        args: [message],
      });
      await publicClient.waitForTransactionReceipt({ hash });
    };
    const user = await login(h, HARDHAT_TEST_KEYS[1]);
    const terms = () => h.request().get(`/v4/users/${user.address}/terms`).query({ chainId: 31337 }).expect(200);
    await setMessage('creator terms v1');
    try {
      expect((await terms()).body).to.equal(false);
      await h.request().post(`/v4/users/${user.address}/terms`).send({ chainId: 31337 }).expect(401);
      await h.request().post(`/v4/users/${USER}/terms`).set('Cookie', user.cookie).send({ chainId: 31337 }).expect(403);
      const bad = await h
        .request()
        .post(`/v4/users/${user.address}/terms`)
        .set('Cookie', user.cookie)
        .send({})
        .expect(400);
      expect(bad.body.errors[0].field).to.equal('chainId');
      const accepted = await h
        .request()
        .post(`/v4/users/${user.address}/terms`)
        .set('Cookie', user.cookie)
        .send({ chainId: '31337' })
        .expect(200);
      expect(accepted.body).to.include({ address: user.address, chainId: 31337, onChain: false });
      expect(accepted.body.messageHash).to.match(/^0x[0-9a-f]{64}$/);
      expect((await terms()).body).to.equal(true);
      // A new message needs a new acceptance.
      await setMessage('creator terms v2');
      expect((await terms()).body).to.equal(false);
    } finally {
      await setMessage('');
    }
  });

  it('reads operator rights from the Distributor, before and after the user toggles one', async function () {
    expect(
      (await h.request().get(`/v4/users/${USER}/operator/${OPERATOR}`).query({ chainId: 31337 }).expect(200)).body,
    ).to.deep.equal({ isOperator: false, allowedBy: [] });
    const { devnet, stack } = h.chains[0]!;
    // Hardhat account #6 is USER: it toggles OPERATOR for itself.
    const { walletClient, publicClient } = createDevnetClients({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      privateKey: '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
    });
    expect(walletClient.account.address.toLowerCase()).to.equal(USER);
    const hash = await walletClient.writeContract({
      address: stack.distributor,
      abi: parseAbi(['function toggleOperator(address user, address operator)']),
      functionName: 'toggleOperator',
      args: [USER, OPERATOR],
    });
    await publicClient.waitForTransactionReceipt({ hash });
    expect(
      (await h.request().get(`/v4/users/${USER}/operator/${OPERATOR}`).query({ chainId: 31337 }).expect(200)).body,
    ).to.deep.equal({ isOperator: true, allowedBy: ['OPERATOR'] });
    await publicClient.waitForTransactionReceipt({
      hash: await walletClient.writeContract({
        address: stack.distributor,
        abi: parseAbi(['function toggleOperator(address user, address operator)']),
        functionName: 'toggleOperator',
        args: [USER, OPERATOR],
      }),
    });
  });

  it('serves every claim rule of the Distributor and names it: operators[user][0], mainOperators[operator][token or 0], governor/guardian, the user itself', async function () {
    const { devnet, stack } = h.chains[0]!;
    const token = stack.tokens.rewards[0]!.address;
    const other = stack.tokens.rewards[1]!.address;
    const asUser = createDevnetClients({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      privateKey: '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
    });
    const asGovernor = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId });
    const abi = parseAbi([
      'function toggleOperator(address user, address operator)',
      'function toggleMainOperatorStatus(address operator, address token)',
      'function setGuardian(address guardian)',
    ]);
    const send = async (
      c: typeof asUser,
      functionName: 'toggleOperator' | 'toggleMainOperatorStatus' | 'setGuardian',
      args: readonly unknown[],
    ) =>
      c.publicClient.waitForTransactionReceipt({
        hash: await c.walletClient.writeContract({ address: stack.distributor, abi, functionName, args } as never),
      });
    const rights = async (operator: string, query: Record<string, unknown> = {}) =>
      (
        await h
          .request()
          .get(`/v4/users/${USER}/operator/${operator}`)
          .query({ chainId: 31337, ...query })
          .expect(200)
      ).body;
    const governor = asGovernor.account.address.toLowerCase();

    expect(await rights(USER)).to.deep.equal({ isOperator: true, allowedBy: ['USER'] });
    expect(await rights(governor)).to.deep.equal({ isOperator: true, allowedBy: ['GOVERNOR_OR_GUARDIAN'] });

    await send(asUser, 'toggleOperator', [USER, zeroAddress]); // anyone may claim for USER
    expect(await rights(OPERATOR)).to.deep.equal({ isOperator: true, allowedBy: ['ANYONE'] });
    await send(asUser, 'toggleOperator', [USER, zeroAddress]);
    expect(await rights(OPERATOR)).to.deep.equal({ isOperator: false, allowedBy: [] });

    await send(asGovernor, 'toggleMainOperatorStatus', [OPERATOR, token]);
    expect(await rights(OPERATOR, { token })).to.deep.equal({ isOperator: true, allowedBy: ['MAIN_OPERATOR_TOKEN'] });
    expect(await rights(OPERATOR, { token: other })).to.deep.equal({ isOperator: false, allowedBy: [] });
    await send(asGovernor, 'toggleMainOperatorStatus', [OPERATOR, token]);
    await send(asGovernor, 'toggleMainOperatorStatus', [OPERATOR, zeroAddress]);
    expect(await rights(OPERATOR, { token: other })).to.deep.equal({ isOperator: true, allowedBy: ['MAIN_OPERATOR'] });
    expect(await rights(OPERATOR)).to.deep.equal({ isOperator: true, allowedBy: ['MAIN_OPERATOR'] });
    await send(asGovernor, 'toggleMainOperatorStatus', [OPERATOR, zeroAddress]);

    await send(asGovernor, 'setGuardian', [OPERATOR]);
    expect(await rights(OPERATOR)).to.deep.equal({ isOperator: true, allowedBy: ['GOVERNOR_OR_GUARDIAN'] });
    await send(asGovernor, 'setGuardian', [zeroAddress]);
    expect(await rights(OPERATOR)).to.deep.equal({ isOperator: false, allowedBy: [] });
    await h
      .request()
      .get(`/v4/users/${USER}/operator/${OPERATOR}`)
      .query({ chainId: 31337, token: 'nope' })
      .expect(400);
  });

  it('answers the zero address as recipient when none is set (or the Distributor has none)', async function () {
    const token = h.chains[0]!.stack.tokens.rewards[0]!.address;
    expect(
      (await h.request().get(`/v4/users/${USER}/recipient/${token}`).query({ chainId: 31337 }).expect(200)).body,
    ).to.deep.equal({ recipient: zeroAddress });
  });
});
