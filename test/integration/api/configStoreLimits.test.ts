import { expect } from 'chai';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';

const RATE = 6;
const MAX_PENDING = 2;
const TTL_DAYS = 7;

/** Waits out the end of a wall-clock minute if it is near, so a burst lands in one fixed one-minute window. */
async function awayFromMinuteEnd(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe('POST /v4/config/store: a rate limit and a quota per caller (#29 L2)', function () {
  let h: Harness;
  before(async function () {
    h = await createHarness({
      chainIds: [31337],
      env: {
        CONFIG_STORE_RATE_LIMIT: String(RATE),
        CONFIG_STORE_MAX_PENDING: String(MAX_PENDING),
        CONFIG_STORE_UNASSOCIATED_TTL_DAYS: String(TTL_DAYS),
        TRUSTED_PROXIES: '1',
      },
    });
  });
  after(async () => h?.close());

  const storeFrom = (client: string, config: object) =>
    h.request().post('/v4/config/store').set('X-Forwarded-For', client).send(config);

  it('answers 429 with Retry-After past CONFIG_STORE_RATE_LIMIT stores a minute from one caller; other callers are counted apart, an IPv6 client by its /64', async function () {
    this.timeout(60_000);
    await awayFromMinuteEnd();
    const config = { campaignType: 1, note: 'rate' };
    for (let i = 0; i < RATE; i++) await storeFrom('198.51.100.10', config).expect(200);
    const refused = await storeFrom('198.51.100.10', config).expect(429);
    expect(refused.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
    expect(refused.body).to.include({ status: 429, code: 'RATE_LIMITED' });
    expect(refused.body.detail).to.include(`At most ${RATE} configurations are stored per minute for one caller`);
    await storeFrom('198.51.100.11', config).expect(200);
    await h
      .request()
      .post('/v4/config/store')
      .set('X-Forwarded-For', '198.51.100.10')
      .set('authorization', TEST_BACK_OFFICE_TOKEN)
      .send(config)
      .expect(200);
    for (let i = 0; i < RATE; i++) await storeFrom(`2001:db8:1:2::${i + 1}`, config).expect(200);
    await storeFrom('2001:db8:1:2:ffff::9', config).expect(429);
    await storeFrom('2001:db8:1:3::1', config).expect(200);
  });

  it('refuses a new configuration past CONFIG_STORE_MAX_PENDING unused ones of one caller; storing one again still works and a used one frees its place', async function () {
    this.timeout(60_000);
    await awayFromMinuteEnd();
    const client = '198.51.100.20';
    const hashes: string[] = [];
    for (let i = 0; i < MAX_PENDING; i++)
      hashes.push((await storeFrom(client, { campaignType: 1, note: `quota ${i}` }).expect(200)).body.hash);
    const { rows: stored } = await h.deps.pg.query<{ stored_by: string }>(
      'SELECT stored_by FROM campaign_configs WHERE hash = ANY($1)',
      [hashes],
    );
    expect(stored.map((r) => r.stored_by)).to.deep.equal(Array(MAX_PENDING).fill(`ip:${client}`));
    const refused = await storeFrom(client, { campaignType: 1, note: 'one too many' }).expect(429);
    expect(refused.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(refused.body).to.include({ status: 429, code: 'CONFIG_STORE_QUOTA_EXCEEDED' });
    expect(refused.body.detail).to.include(`already holds ${MAX_PENDING} stored configurations that no campaign uses`);
    // The oldest leaves the count TTL_DAYS after it was stored.
    expect(Number(refused.headers['retry-after'])).to.be.within(TTL_DAYS * 86_400 - 60, TTL_DAYS * 86_400);
    expect(
      (await h.deps.pg.query('SELECT count(*)::int AS n FROM campaign_configs WHERE stored_by = $1', [`ip:${client}`]))
        .rows[0].n,
    ).to.equal(MAX_PENDING);
    await storeFrom(client, { campaignType: 1, note: 'quota 0' }).expect(200);
    await h.deps.pg.query(
      "INSERT INTO campaign_config_associations (config_hash, distribution_chain_id, campaign_id, grounds) VALUES ($1, 31337, '0x01', 'backOffice')",
      [hashes[0]],
    );
    await storeFrom(client, { campaignType: 1, note: 'one too many' }).expect(200);
    await storeFrom('198.51.100.21', { campaignType: 1, note: 'another caller' }).expect(200);
  });
});
