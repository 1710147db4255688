import { expect } from 'chai';
import { summarizeCampaigns } from '../../../../domain/documents/campaignSummary.js';
import type { OpportunityCampaign } from '../../../../domain/documents/sources.js';
import { createPgPool, type PgPool } from '../../../../internal/pg.js';
import { loadOpportunitySources } from '../../../../domain/projection/opportunitySources.js';
import { resetDatabase } from '../../../helpers/database.js';
import { seededRandom } from '../../../helpers/seededRandom.js';
import { TEST_DATABASE_URL } from '../../../helpers/testConfig.js';

const hex = (n: number, bytes: number) => `0x${n.toString(16).padStart(bytes * 2, '0')}`;
const OPPS = ['opp-a', 'opp-b', 'opp-c'];
const T0 = 1_900_000_000;

/**
 * The reference: every public campaign of an opportunity as one JSON row each, exactly as the projector
 * loaded them before PostgreSQL summarized them (overrides applied, private campaigns left out).
 */
async function referenceCampaigns(pg: PgPool, opportunityId: string): Promise<OpportunityCampaign[]> {
  const { rows } = await pg.query<{ campaigns: OpportunityCampaign[] }>(
    `SELECT COALESCE((SELECT json_agg(json_build_object(
         'id', c.id, 'campaign_id', c.campaign_id, 'creator', c.creator, 'reward_token', c.reward_token,
         'creator_id', (SELECT k.id FROM creators k WHERE c.creator = ANY(k.addresses) ORDER BY k.id LIMIT 1),
         'reward_symbol', rt.symbol, 'reward_type', rt.type, 'reward_is_test', rt.is_test, 'amount', c.amount::text,
         'campaign_type', c.campaign_type, 'start_timestamp', c.start_timestamp::text, 'end_timestamp', c.end_timestamp::text,
         'params', c.params, 'created_at', c.created_at, 'parent_campaign_id', c.parent_campaign_id) ORDER BY c.created_at, c.id)
       FROM campaigns_current c
       LEFT JOIN tokens rt ON rt.chain_id = c.distribution_chain_id AND rt.address = c.reward_token
       WHERE c.opportunity_id = $1
         AND NOT EXISTS (SELECT 1 FROM campaign_privacy pv WHERE pv.campaign_db_id = c.id AND pv.is_private)), '[]') AS campaigns`,
    [opportunityId],
  );
  return rows[0]!.campaigns.map((c) => ({ ...c, created_at: new Date(c.created_at) }));
}

describe('domain/projection/opportunitySources: campaigns summarized by PostgreSQL', function () {
  let pg: PgPool;
  const load = async (ids: string[], now: number) => {
    const client = await pg.connect();
    try {
      return await loadOpportunitySources(client, ids, now);
    } finally {
      client.release();
    }
  };

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    pg = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-summary' });
    const tokens = [
      { address: hex(1, 20), symbol: 'RWD', type: 'TOKEN', test: false },
      { address: hex(2, 20), symbol: 'TST', type: 'TOKEN', test: true },
      { address: hex(3, 20), symbol: 'PTS', type: 'POINT', test: false },
      { address: hex(4, 20), symbol: '', type: 'PRETGE', test: false },
    ];
    for (const [i, t] of tokens.entries())
      await pg.query(
        'INSERT INTO tokens (id, chain_id, address, name, symbol, decimals, is_test, type) VALUES ($1, 31337, $2, $3, $4, 18, $5, $6)',
        [`tok-${i}`, t.address, `Token ${i}`, t.symbol, t.test, t.type],
      );
    // Two registered creators share an address: the first id wins, as on the campaign documents.
    await pg.query(
      `INSERT INTO creators (id, name, addresses) VALUES ('zeta', 'Z', $1), ('alpha', 'A', $2), ('beta', 'B', $2)`,
      [[hex(0xc1, 20)], [hex(0xc2, 20)]],
    );
    for (const [i, id] of OPPS.entries())
      await pg.query(
        "INSERT INTO opportunities (id, chain_id, type, identifier, action) VALUES ($1, 31337, 'ERC20', $2, 'HOLD')",
        [id, hex(0xe0 + i, 20)],
      );

    const random = seededRandom(7);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
    const ids: string[] = [];
    for (let i = 0; i < 240; i++) {
      const id = `c${String(i).padStart(3, '0')}`;
      // Windows that overlap, touch (end = next start), repeat and stand apart; a few zero-length ones.
      const start = T0 + Math.floor(random() * 40) * 2_000;
      const end = start + pick([0, 1000, 2000, 3000, 7000]);
      const params = pick([{}, { url: '' }, { url: 7 }, { url: `https://app.example/${i}` }, { url: null }]);
      await pg.query(
        `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount, campaign_type,
           start_timestamp, end_timestamp, campaign_data, block_number, block_hash, tx_hash, log_index, created_at, main_parameter,
           opportunity_id, params, parent_campaign_id)
         VALUES ($1, 31337, 31337, $2, $3, $4, '1000', $5, $6, $7, '0x', 1, $8, $8, $9, $10, $11, $12, $13, $14)`,
        [
          id,
          hex(0xca000 + i, 32),
          pick([hex(0xc1, 20), hex(0xc2, 20), hex(0xc3, 20)]),
          pick([...tokens.map((t) => t.address), hex(0x99, 20)]), // the last one is no known token
          pick([1, 2, 7]),
          start,
          end,
          hex(0x7000 + i, 32),
          i,
          // Ties on created_at are broken by id.
          new Date((T0 - 10_000 + Math.floor(random() * 30) * 60) * 1000).toISOString(),
          hex(0xe0, 20),
          pick(OPPS),
          JSON.stringify(params),
          i > 5 && random() < 0.2 ? pick(ids) : null,
        ],
      );
      ids.push(id);
      if (random() < 0.15)
        await pg.query('INSERT INTO campaign_privacy (campaign_db_id, is_private, updated_by) VALUES ($1, $2, $3)', [
          id,
          random() < 0.8,
          hex(0xc1, 20),
        ]);
      // Overrides move campaigns between opportunities and change their windows; the latest one counts.
      for (let k = 0; random() < 0.2 && k < 3; k++) {
        const s = T0 + Math.floor(random() * 40) * 2_000;
        await pg.query(
          `INSERT INTO campaign_overrides (chain_id, campaign_db_id, campaign_id, campaign_type, compute_chain_id, start_timestamp,
             end_timestamp, campaign_data, main_parameter, opportunity_id, params, block_number, block_hash, tx_hash, log_index, timestamp)
           VALUES (31337, $1, $2, $3, 31337, $4, $5, '0x', $6, $7, $8, $9, '0xb', $10, 0, 0)`,
          [
            id,
            hex(0xca000 + i, 32),
            pick([1, 2, 7]),
            s,
            s + pick([500, 3000]),
            hex(0xe0, 20),
            pick(OPPS),
            JSON.stringify(pick([{}, { url: `https://override.example/${i}` }])),
            10 + k,
            hex(0x8000 + i * 4 + k, 32),
          ],
        );
      }
    }
  });

  after(async () => pg?.end());

  for (const offset of [-20_000, 0, 4_000, 9_999, 10_000, 40_000]) {
    it(`equals summarizeCampaigns over every public campaign's row, at T0 ${offset < 0 ? '−' : '+'} ${Math.abs(offset)} s`, async function () {
      const now = T0 + offset;
      const sources = await load([...OPPS, 'absent'], now);
      expect(sources.map((s) => s.id).sort()).to.deep.equal(OPPS);
      for (const source of sources) {
        const campaigns = await referenceCampaigns(pg, source.id);
        expect(campaigns.length, source.id).to.be.greaterThan(20);
        expect(source.summary, source.id).to.deep.equal(summarizeCampaigns(campaigns, now));
      }
    });
  }

  it('covers what it claims: live, soon and past campaigns, merged and separate windows, every url kind', async function () {
    const sources = await load(OPPS, T0 + 4_000);
    const summaries = sources.map((s) => s.summary!);
    expect(summaries.some((s) => s.live > 1 && s.soon)).to.equal(true);
    expect(summaries.every((s) => s.windows.length < s.count)).to.equal(true);
    expect(summaries.some((s) => s.windows.length > 1)).to.equal(true);
    expect(summaries.every((s) => s.depositUrl.startsWith('https://'))).to.equal(true);
    expect(summaries.every((s) => s.creatorIds.join() === 'alpha,zeta')).to.equal(true);
    const { rows } = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM campaign_privacy WHERE is_private');
    expect(rows[0]!.n).to.be.greaterThan(5);
  });

  it('has no summary for an opportunity whose campaigns are all private or moved away', async function () {
    await pg.query(
      "INSERT INTO opportunities (id, chain_id, type, identifier, action) VALUES ('opp-empty', 31337, 'ERC20', '0xee', 'HOLD')",
    );
    const [source] = await load(['opp-empty'], T0);
    expect(source!.summary).to.equal(null);
  });
});
