import { expect } from 'chai';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { login } from './authFlow.js';

const BO = { authorization: TEST_BACK_OFFICE_TOKEN };

describe('credits: pricing, balances, operations and back-office moves', function () {
  let h: Harness;
  const add = (body: Record<string, unknown>, headers: Record<string, string> = BO) =>
    h.request().post('/v4/credits').set(headers).send(body);
  const subtract = (body: Record<string, unknown>, headers: Record<string, string> = BO) =>
    h.request().post('/v4/credits/subtract').set(headers).send(body);
  const balance = async (id: string) => (await h.request().get(`/v4/credits/${id}`).expect(200)).body.amount as string;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    await h.deps.pg.query(
      "INSERT INTO creators (id, name, icon, rebate_fee) VALUES ('acme', 'Acme', 'https://x/i.png', 5), ('race', 'Race', null, 0), ('idem', 'Idem', null, 0)",
    );
  });
  after(async () => h?.close());

  it('publishes the price list', async function () {
    const res = await h.request().get('/v4/credits/pricing').expect(200);
    expect(Object.keys(res.body).sort()).to.deep.equal([
      'baseCostPerWeek',
      'costPerRecipient',
      'freeTierRecipientThreshold',
      'minTopUpAmount',
      'perDepthWeeklyRate',
      'perStoringIdWeeklyRate',
    ]);
    for (const v of Object.values(res.body)) expect(v).to.be.a('number');
  });

  it('shows a creator without a credit record at 0, and 404s an unknown creator', async function () {
    const res = await h.request().get('/v4/credits/acme').expect(200);
    expect(res.body).to.deep.include({ creatorId: 'acme', amount: '0', maxNegativeBalance: '0', CreditOperations: [] });
    expect(res.body.Creator).to.deep.equal({
      id: 'acme',
      icon: 'https://x/i.png',
      name: 'Acme',
      rebateFee: 5,
      hubspotCompanyId: null,
    });
    await h.request().get('/v4/credits/nobody').expect(404);
    await h.request().get('/v4/credits/NOT_AN_ID').expect(400);
    await subtract({ creatorId: 'acme', amount: 1, label: 'x' }).expect(404);
  });

  it('moves credits only with the back-office credential', async function () {
    await add({ creatorId: 'acme', amount: 1, label: 'x' }, {}).expect(401);
    await add(
      { creatorId: 'acme', amount: 1, label: 'x' },
      { Cookie: (await login(h, HARDHAT_TEST_KEYS[0])).cookie },
    ).expect(403);
    await subtract({ creatorId: 'acme', amount: 1, label: 'x' }, {}).expect(401);
    await add({ creatorId: 'nobody', amount: 1, label: 'x' }).expect(404);
  });

  it('adds and subtracts, never below the allowed negative balance, recording every operation', async function () {
    expect((await add({ creatorId: 'acme', amount: 100.5, label: 'top-up' }).expect(200)).body).to.deep.equal({
      creatorId: 'acme',
      amount: '100.5',
    });
    expect((await subtract({ creatorId: 'acme', amount: '30.25', label: 'week 1' }).expect(200)).body.amount).to.equal(
      '70.25',
    );
    const refused = await subtract({ creatorId: 'acme', amount: 70.26, label: 'too much' }).expect(409);
    expect(refused.body).to.include({ code: 'INSUFFICIENT_CREDITS', balance: '70.25', floor: '0' });
    expect(await balance('acme')).to.equal('70.25');
    await h.request().put('/v4/credits/acme/allowance').set(BO).send({ maxNegativeBalance: 50 }).expect(200);
    expect(
      (await subtract({ creatorId: 'acme', amount: 100.25, label: 'on credit' }).expect(200)).body.amount,
    ).to.equal('-30');
    await subtract({ creatorId: 'acme', amount: 20.000001, label: 'past the allowance' }).expect(409);
    // The allowance cannot be lowered under the current debt.
    await h.request().put('/v4/credits/acme/allowance').set(BO).send({ maxNegativeBalance: 29 }).expect(409);
    const ops = (await h.request().get('/v4/credits/acme/operations?items=2').expect(200)).body;
    expect(
      ops.map((o: { type: string; amount: string; balanceAfter: string }) => [o.type, o.amount, o.balanceAfter]),
    ).to.deep.equal([
      ['SUBTRACT', '100.25', '-30'],
      ['SUBTRACT', '30.25', '70.25'],
    ]);
    expect((await h.request().get('/v4/credits/acme/operations?page=1&items=2').expect(200)).body).to.have.length(1);
    expect((await h.request().get('/v4/credits/acme').expect(200)).body.CreditOperations).to.have.length(3);
  });

  it('replays a move with the same idempotency key (header or body) and refuses the key for another move', async function () {
    await add({ creatorId: 'idem', amount: 10, label: 'once' }).set('Idempotency-Key', 'k-1').expect(200);
    const replay = await add({ creatorId: 'idem', amount: 10, label: 'once' })
      .set('Idempotency-Key', 'k-1')
      .expect(200);
    expect(replay.body.amount).to.equal('10');
    expect(replay.headers['idempotent-replayed']).to.equal('true');
    await add({ creatorId: 'idem', amount: 10, label: 'once', idempotencyKey: 'k-1' }).expect(200);
    await add({ creatorId: 'idem', amount: 11, label: 'once' }).set('Idempotency-Key', 'k-1').expect(409);
    expect(await balance('idem')).to.equal('10');
    expect((await h.request().get('/v4/credits/idem/operations').expect(200)).body).to.have.length(1);
  });

  it('keeps racing subtractions atomic: exactly what the balance covers goes through', async function () {
    await add({ creatorId: 'race', amount: 50, label: 'fund' }).expect(200);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => subtract({ creatorId: 'race', amount: 10, label: `run ${i}` })),
    );
    expect(results.filter((r) => r.status === 200)).to.have.length(5);
    expect(results.filter((r) => r.status === 409)).to.have.length(5);
    expect(await balance('race')).to.equal('0');
  });

  it('refuses bad amounts, labels and ids naming the field', async function () {
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 0 }, 'amount'],
      [{ amount: -1 }, 'amount'],
      [{ amount: 1e-7 }, 'amount'],
      [{ amount: 0.1234567 }, 'amount'],
      [{ amount: 'ten' }, 'amount'],
      [{ amount: '0' }, 'amount'],
      [{ amount: '1000000000000.000001' }, 'amount'],
      [{ amount: '1.1234567' }, 'amount'],
      [{ label: '' }, 'label'],
      [{ label: 'l'.repeat(257) }, 'label'],
      [{ creatorId: 'Bad Id' }, 'creatorId'],
      [{ extra: 1 }, 'extra'],
    ];
    for (const [override, field] of cases) {
      const res = await add({ creatorId: 'acme', amount: 1, label: 'x', ...override }).expect(400);
      expect(
        res.body.errors.map((e: { field: string }) => e.field),
        JSON.stringify(override),
      ).to.include(field);
    }
    await add({ creatorId: 'acme', amount: 1, label: 'l'.repeat(256) }).expect(200);
  });

  it("serves credit amounts as exact decimal strings, past a double's precision", async function () {
    await h.deps.pg.query("INSERT INTO creators (id, name) VALUES ('exact', 'Exact')");
    expect((await add({ creatorId: 'exact', amount: 1e12, label: 'big' }).expect(200)).body.amount).to.equal(
      '1000000000000',
    );
    const moved = await add({ creatorId: 'exact', amount: '89.000001', label: 'small' }).expect(200);
    expect(moved.body.amount).to.equal('1000000000089.000001');
    const { rows } = await h.deps.pg.query("SELECT balance::text FROM credit_accounts WHERE creator_id = 'exact'");
    expect(rows[0].balance).to.equal('1000000000089.000001');
    const account = (await h.request().get('/v4/credits/exact').expect(200)).body;
    expect(account.amount).to.equal('1000000000089.000001');
    expect(account.CreditOperations[0]).to.include({ amount: '89.000001', balanceAfter: '1000000000089.000001' });
    // Amounts sent as strings stay exact on the way in as well: one millionth short of the allowance is refused.
    expect(
      (await subtract({ creatorId: 'exact', amount: '1000000000000', label: 'most' }).expect(200)).body.amount,
    ).to.equal('89.000001');
    await h
      .request()
      .put('/v4/credits/exact/allowance')
      .set(BO)
      .send({ maxNegativeBalance: '999999999910.999998' })
      .expect(200);
    const refused = await subtract({ creatorId: 'exact', amount: '1000000000000', label: 'past' }).expect(409);
    expect(refused.body).to.include({ balance: '89.000001', floor: '-999999999910.999998' });
    await h
      .request()
      .put('/v4/credits/exact/allowance')
      .set(BO)
      .send({ maxNegativeBalance: '999999999910.999999' })
      .expect(200);
    expect(
      (await subtract({ creatorId: 'exact', amount: '1000000000000', label: 'all' }).expect(200)).body.amount,
    ).to.equal('-999999999910.999999');
  });
});
