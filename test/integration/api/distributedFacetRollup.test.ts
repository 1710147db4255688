import { expect } from 'chai';
import { signSession } from '../../../api/identity/jwt.js';
import { NEW_CAMPAIGN_DISTRIBUTED } from '../../../domain/tables/distributed.js';
import { loadChainTime } from '../../../domain/tables/roots.js';
import { distributedByCampaign, setRewardTokenClose } from '../../helpers/distributedSql.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

const CHAIN = 31337;
type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };
const PRICE = 2.5;
const ROUTES = ['', '/by-chains', '/by-types', '/by-protocols', '/by-tokens'];

/**
 * GET /v4/rewards/total/distributed from the facet rollup (distributed_facet_rollup, the `distributed`
 * job, sql/migrations/2026_12_03_08_distributed_facet_rollup.sql): the same answers as the exact
 * query over filters, windows and visibility; never a stale one (a privacy change, a root going live
 * by the clock alone) ; the job makes the rollup answer again. Which path answered is the response's
 * `Server-Timing: distributed;desc=…`.
 */
describe('GET /v4/rewards/total/distributed from the facet rollup', function () {
  let demo: ReferenceDemo;
  let creator: string;
  let privateId: string;
  let testToken: string;
  const q = <T extends Record<string, unknown>>(sql: string, args: unknown[] = []) =>
    demo.h.deps.pg.query<T>(sql, args).then((r) => r.rows);
  const as = (address: string) => ({
    Cookie: `jwt=${signSession({ secret: demo.h.config.jwtSecret, address, tier: 0 }).token}`,
  });
  /** The body and the path that answered (rollup, exact or search). */
  const read = async (path: string, headers: Record<string, string> = {}) => {
    const res = await demo.h.request().get(path).set(headers).expect(200);
    const via = /distributed;desc=(\w+)/.exec(String(res.headers['server-timing']))?.[1];
    return { body: res.body as unknown, via };
  };
  const rebuild = async () => {
    const run = await demo.h.runJob('distributed');
    expect(run.status).to.equal('success');
    return run.status === 'success' ? run.result.counts : {};
  };
  const markDirty = () => q('INSERT INTO distributed_rollup_dirty (xid) VALUES (txid_current())');
  const dirtyMarkers = async () =>
    (await q<{ n: number }>('SELECT count(*)::int AS n FROM distributed_rollup_dirty'))[0]!.n;
  /** Equal answers: the same keys, strings (token units) exactly, USD up to the order of float sums. */
  const same = (a: unknown, b: unknown, what: string): void => {
    if (typeof a === 'number' && typeof b === 'number') {
      expect(a, what).to.be.closeTo(b, 1e-9 * Math.max(1, Math.abs(b)));
    } else if (a && b && typeof a === 'object' && typeof b === 'object') {
      expect(Object.keys(a).sort(), what).to.deep.equal(Object.keys(b).sort());
      for (const k of Object.keys(a)) same((a as never)[k], (b as never)[k], `${what}.${k}`);
    } else expect(a, what).to.equal(b);
  };

  /**
   * Reads every request from the freshly rebuilt rollup, then (a dirty marker set) by the exact path,
   * and compares: which path answered each, and equal answers. Returns the exact answers.
   */
  const compareWithExact = async (requests: { what: string; path: string; headers: Record<string, string> }[]) => {
    expect((await rebuild())['rebuilt']).to.be.oneOf([0, 1]);
    const rolled: Awaited<ReturnType<typeof read>>[] = [];
    for (const r of requests) rolled.push(await read(r.path, r.headers));
    await markDirty();
    const exact: Awaited<ReturnType<typeof read>>[] = [];
    for (const r of requests) exact.push(await read(r.path, r.headers));
    requests.forEach((r, i) => {
      expect(rolled[i]!.via, r.what).to.equal('rollup');
      expect(exact[i]!.via, r.what).to.equal('exact');
      same(rolled[i]!.body, exact[i]!.body, r.what);
    });
    return exact.map((e) => e.body);
  };
  /** Whether an answer holds a figure (not 0, {} or []). */
  const hasFigures = (body: unknown) => !['0', '{}', '[]'].includes(JSON.stringify(body));
  let times: number[];

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    await setRewardTokenClose(demo.h.deps.pg, CHAIN, PRICE);
    // The demo's distributing campaigns share one reward token and are top-level campaigns on one chain:
    // one of them made private (its creator may see it), one rewarded in a test token, one a
    // sub-campaign, one computed on another chain, so that each facet has rows on both sides.
    const campaigns = (await distributedByCampaign(demo.h.deps.pg, CHAIN, PRICE)).filter((c) => c.usd > 0);
    const rows = await q<{ id: string; creator: string; reward_token: string; campaign_id: string }>(
      `SELECT id, lower(creator) AS creator, lower(reward_token) AS reward_token, campaign_id
       FROM campaigns WHERE distribution_chain_id = $1 AND lower(campaign_id) = ANY($2::text[]) ORDER BY id`,
      [CHAIN, campaigns.map((c) => c.campaign_id)],
    );
    expect(rows.length, 'distributing campaigns').to.be.greaterThan(5);
    privateId = rows[0]!.id;
    creator = rows[0]!.creator;
    await demo.h
      .request()
      .patch(`/v4/campaigns/${privateId}/privacy`)
      .set(as(creator))
      .send({ isPrivate: true, recipientsCanView: false })
      .expect(200);
    const [other] = await q<{ address: string }>(
      `SELECT lower(address) AS address FROM tokens WHERE chain_id = $1 AND lower(address) <> $2
         AND address <> '0x0000000000000000000000000000000000000000' ORDER BY address LIMIT 1`,
      [CHAIN, rows[1]!.reward_token],
    );
    testToken = other!.address;
    await q('UPDATE campaigns SET reward_token = $2 WHERE id = $1', [rows[1]!.id, testToken]);
    await q('UPDATE tokens SET is_test = true WHERE chain_id = $1 AND lower(address) = $2', [CHAIN, testToken]);
    await q('UPDATE campaigns SET parent_campaign_id = $2 WHERE id = $1', [rows[2]!.id, rows[3]!.campaign_id]);
    await q('UPDATE campaigns SET compute_chain_id = 1 WHERE id = $1', [rows[4]!.id]);
    // Each status among the distributing campaigns (a campaign's status is its start and end against the
    // clock): one upcoming, two past, and the private one ending within the hour (inside the rollups' horizon,
    // where they keep its real end).
    const now = Math.floor(Date.now() / 1000);
    const day = 86_400;
    const bounds = (id: string, start: number, end: number) =>
      q('UPDATE campaigns SET start_timestamp = $2, end_timestamp = $3 WHERE id = $1', [id, start, end]);
    await bounds(rows[2]!.id, now + 30 * day, now + 60 * day);
    await bounds(rows[4]!.id, now - 60 * day, now - 30 * day);
    await bounds(rows[5]!.id, now - 60 * day, now - 1);
    await bounds(privateId, now - day, now + 3600);
    times = (
      await q<{ t: string }>(
        'SELECT timestamp::text AS t FROM roots WHERE chain_id = $1 AND NOT revoked ORDER BY block_number, log_index',
        [CHAIN],
      )
    ).map((r) => Number(r.t));
    expect(times.length, 'roots').to.be.greaterThan(2);
  });

  after(async () => demo?.close());

  it('answers from the rollup what the exact query answers, by filters, windows, months and visibility', async function () {
    const windows = [
      '',
      `from=${times[1]}`,
      `to=${times[1]}`,
      // Inside a month: the second root only.
      `from=${times[0]! + 1}&to=${times[2]! - 1}`,
      `from=${times[1]}&to=${times[2]}&grain=month`,
      'grain=month',
      'from=2999-01-01',
    ];
    const filters = [
      '',
      `distributionChainIds=${CHAIN}`,
      `chainId=${CHAIN}`,
      'chainId=1',
      'test=true',
      'excludeSubCampaigns=true',
      'test=true&excludeSubCampaigns=true&onlySubCampaigns=false',
    ];
    const callers: [string, Record<string, string>, string][] = [
      ['anonymous', {}, ''],
      ['creator (their private campaign)', as(creator), 'showPrivate=true'],
      ['stranger', as(`0x${'77'.repeat(20)}`), 'showPrivate=true'],
      ['back office (every private campaign)', { authorization: TEST_BACK_OFFICE_TOKEN }, 'showPrivate=true'],
    ];
    // Every route, window and filter for an anonymous caller; the others on fewer windows and filters.
    const requests = ROUTES.flatMap((route) =>
      windows.flatMap((w) =>
        filters.flatMap((f) =>
          callers
            .filter((_, i) => i === 0 || (['', 'grain=month'].includes(w) && ['', 'test=true'].includes(f)))
            .map(([who, headers, extra]) => ({
              what: `${who}: ${route} ${w} ${f}`,
              path: `/v4/rewards/total/distributed${route}?${[w, f, extra].filter(Boolean).join('&')}`,
              headers,
            })),
        ),
      ),
    );
    expect((await rebuild())['rebuilt']).to.equal(1);
    const rolled: Awaited<ReturnType<typeof read>>[] = [];
    for (const r of requests) rolled.push(await read(r.path, r.headers));
    await markDirty();
    const exact: Awaited<ReturnType<typeof read>>[] = [];
    for (const r of requests) exact.push(await read(r.path, r.headers));
    let nonZero = 0;
    requests.forEach((r, i) => {
      expect(rolled[i]!.via, r.what).to.equal('rollup');
      expect(exact[i]!.via, r.what).to.equal('exact');
      same(rolled[i]!.body, exact[i]!.body, r.what);
      if (JSON.stringify(exact[i]!.body) !== '0' && JSON.stringify(exact[i]!.body) !== '{}') nonZero++;
    });
    expect(nonZero, 'answers with figures').to.be.greaterThan(requests.length / 3);
    // The three kinds of visibility tell apart: the private campaign counts for its creator and the back office only.
    const total = (i: number) => exact[requests.findIndex((r) => r.what === `${callers[i]![0]}:   `)]!.body as number;
    expect(total(1)).to.be.greaterThan(total(0));
    expect(total(3)).to.be.at.least(total(1) * (1 - 1e-9));
    expect(total(2)).to.be.closeTo(total(0), 1e-9 * total(0));
  });

  it('answers a status filter from the status rollup what the exact query answers, by filters, windows and visibility', async function () {
    const statuses = ['SOON', 'LIVE', 'PAST', 'LIVE,PAST', 'SOON,PAST', 'SOON,LIVE,PAST'];
    const windows = [
      '',
      `from=${times[1]}`,
      `to=${times[1]}`,
      'grain=month',
      `from=${times[1]}&to=${times[2]}&grain=month`,
    ];
    const filters = ['', `chainId=${CHAIN}`, 'chainId=1', 'test=true', 'excludeSubCampaigns=true'];
    const callers: [string, Record<string, string>, string][] = [
      ['anonymous', {}, ''],
      ['creator (their private campaign)', as(creator), 'showPrivate=true'],
      ['back office', { authorization: TEST_BACK_OFFICE_TOKEN }, 'showPrivate=true'],
    ];
    // Every route and status with every window for anonymous callers, with every filter on the total;
    // the other callers on the whole history.
    const requests = ROUTES.flatMap((route) =>
      statuses.flatMap((status) =>
        windows.flatMap((w) =>
          (route === '' ? filters : ['', 'test=true']).flatMap((f) =>
            callers
              .filter((_, i) => i === 0 || (w === '' && f === ''))
              .map(([who, headers, extra]) => ({
                what: `${who}: ${route} status=${status} ${w} ${f}`,
                path: `/v4/rewards/total/distributed${route}?${[`status=${status}`, w, f, extra].filter(Boolean).join('&')}`,
                headers,
              })),
          ),
        ),
      ),
    );
    const exact = await compareWithExact(requests);
    const total = (status: string, who = 'anonymous') =>
      exact[requests.findIndex((r) => r.what === `${who}:  status=${status}  `)] as number;
    for (const status of ['SOON', 'LIVE', 'PAST']) expect(total(status), status).to.be.greaterThan(0);
    // The statuses partition the campaigns; the private campaign (live) counts for its creator only.
    const all = total('SOON,LIVE,PAST');
    expect(total('SOON') + total('LIVE') + total('PAST')).to.be.closeTo(all, 1e-9 * all);
    expect(total('LIVE', 'creator (their private campaign)')).to.be.greaterThan(total('LIVE'));
    expect(exact.filter(hasFigures).length, 'answers with figures').to.be.greaterThan(requests.length / 3);
  });

  it('answers a status filter exactly once the clock leaves the horizon the rollups were built for, until the job rebuilds', async function () {
    await rebuild();
    expect((await read('/v4/rewards/total/distributed?status=LIVE')).via).to.equal('rollup');
    const live = await read('/v4/rewards/total/distributed/by-tokens?status=LIVE');
    await q('UPDATE distributed_rollup_clock SET valid_until = valid_from');
    const outside = await read('/v4/rewards/total/distributed/by-tokens?status=LIVE');
    expect(outside.via).to.equal('exact');
    same(outside.body, live.body, 'by the exact path');
    // Without a status the clock does not matter.
    expect((await read('/v4/rewards/total/distributed')).via).to.equal('rollup');
    expect(await rebuild()).to.include({ rebuilt: 1 });
    expect((await read('/v4/rewards/total/distributed?status=LIVE')).via).to.equal('rollup');
    expect((await read('/v4/rewards/total/distributed?createdAfter=1970-01-01')).via).to.equal('search');
  });

  it('answers /by-opportunities from the opportunity rollup what the exact query answers, by windows, filters, items and visibility', async function () {
    const windows = [
      '',
      `from=${times[0]}`,
      `from=${times[1]}`,
      `to=${times[1]}`,
      `from=${times[0]! + 1}&to=${times[2]! - 1}`,
      `from=${times[1]}&to=${times[2]}`,
      'from=2999-01-01',
    ];
    const filters = [
      '',
      `chainId=${CHAIN}`,
      'chainId=1',
      'test=true',
      'excludeSubCampaigns=true',
      'status=LIVE',
      'status=SOON,PAST',
    ];
    const callers: [string, Record<string, string>, string][] = [
      ['anonymous', {}, ''],
      ['creator (their private campaign)', as(creator), 'showPrivate=true'],
      ['stranger', as(`0x${'77'.repeat(20)}`), 'showPrivate=true'],
      ['back office', { authorization: TEST_BACK_OFFICE_TOKEN }, 'showPrivate=true'],
    ];
    const requests = windows.flatMap((w) =>
      filters.flatMap((f) =>
        ['', 'items=1', 'items=3', 'items=100'].flatMap((items) =>
          callers
            .filter((_, i) => i === 0 || (['', `from=${times[1]}`].includes(w) && ['', 'status=LIVE'].includes(f)))
            .map(([who, headers, extra]) => ({
              what: `${who}: ${w} ${f} ${items}`,
              path: `/v4/rewards/total/distributed/by-opportunities?${[w, f, items, extra].filter(Boolean).join('&')}`,
              headers,
            })),
        ),
      ),
    );
    const exact = (await compareWithExact(requests)) as { opportunityId: string; usd: number; campaigns: number }[][];
    expect(exact.filter(hasFigures).length, 'answers with figures').to.be.greaterThan(requests.length / 3);
    const top = (who: string, w: string) => exact[requests.findIndex((r) => r.what === `${who}: ${w}  items=100`)]!;
    // The private campaign's opportunity counts one more campaign for its creator; a window starting at
    // the second root counts the campaigns that changed there, whenever they first did.
    const mine = top('creator (their private campaign)', '');
    const anyone = top('anonymous', '');
    const count = (t: typeof mine) => t.reduce((n, o) => n + o.campaigns, 0);
    expect(count(mine)).to.equal(count(anyone) + 1);
    expect(count(top('anonymous', `from=${times[1]}`))).to.be.greaterThan(0);
    expect(anyone.length).to.be.greaterThan(3);
  });

  it('answers /by-opportunities from the rollup as exactly when a campaign has no opportunity id (derived from its main parameter)', async function () {
    const ids = (await distributedByCampaign(demo.h.deps.pg, CHAIN, PRICE))
      .filter((c) => c.usd > 0)
      .map((c) => c.campaign_id);
    const [c] = await q<{ id: string; opportunity_id: string }>(
      `SELECT c.id, c.opportunity_id FROM campaigns c WHERE c.distribution_chain_id = $1 AND lower(c.campaign_id) = ANY($2::text[])
         AND c.id <> $3 AND c.opportunity_id IS NOT NULL AND c.main_parameter IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM campaign_overrides o WHERE o.campaign_db_id = c.id) ORDER BY c.id LIMIT 1`,
      [CHAIN, ids, privateId],
    );
    await q('UPDATE campaigns SET opportunity_id = NULL WHERE id = $1', [c!.id]);
    try {
      const exact = await compareWithExact(
        ['', 'items=1', `from=${times[1]}&items=100`, 'status=LIVE,PAST&items=100'].map((query) => ({
          what: query,
          path: `/v4/rewards/total/distributed/by-opportunities?${query}`,
          headers: {},
        })),
      );
      expect(exact.some(hasFigures)).to.equal(true);
    } finally {
      await q('UPDATE campaigns SET opportunity_id = $2 WHERE id = $1', [c!.id, c!.opportunity_id]);
    }
  });

  it('counts a privacy change on the next read, then answers from the rollup again once the job ran', async function () {
    expect((await rebuild())['rebuilt']).to.be.oneOf([0, 1]);
    const campaigns = await distributedByCampaign(demo.h.deps.pg, CHAIN, PRICE);
    const c = campaigns.find((x) => x.usd > 0)!;
    const before = await read('/v4/rewards/total/distributed');
    expect(before.via).to.equal('rollup');
    const [row] = await q<{ id: string; creator: string }>(
      'SELECT id, lower(creator) AS creator FROM campaigns WHERE distribution_chain_id = $1 AND lower(campaign_id) = $2',
      [CHAIN, c.campaign_id],
    );
    // The creator may have other private campaigns: what they see must not move when one of theirs turns private.
    const mineBefore = await read('/v4/rewards/total/distributed?showPrivate=true', as(row!.creator));
    const privacy = (isPrivate: boolean) =>
      demo.h
        .request()
        .patch(`/v4/campaigns/${row!.id}/privacy`)
        .set(as(row!.creator))
        .send({ isPrivate, recipientsCanView: false })
        .expect(200);
    await privacy(true);
    try {
      const after = await read('/v4/rewards/total/distributed');
      expect(after.via).to.equal('exact');
      expect(after.body as number).to.be.closeTo((before.body as number) - c.usd, 1e-6 * Math.max(1, c.usd));
      const mine = await read('/v4/rewards/total/distributed?showPrivate=true', as(row!.creator));
      expect(mine.body as number).to.be.closeTo(mineBefore.body as number, 1e-9 * (mineBefore.body as number));
      expect(await rebuild()).to.include({ rebuilt: 1 });
      const again = await read('/v4/rewards/total/distributed');
      expect(again.via).to.equal('rollup');
      same(again.body, after.body, 'after the rebuild');
    } finally {
      await privacy(false);
    }
    expect((await read('/v4/rewards/total/distributed')).via).to.equal('exact');
    await rebuild();
    same((await read('/v4/rewards/total/distributed')).body, before.body, 'public again');
  });

  it('counts a pending root that goes live by the clock alone at once, without a write the triggers see', async function () {
    const [last] = await q<{ block_number: string; log_index: number; end: string }>(
      `SELECT block_number::text, log_index, end_of_dispute_period::text AS end FROM roots WHERE chain_id = $1 AND NOT revoked
       ORDER BY block_number DESC, log_index DESC LIMIT 1`,
      [CHAIN],
    );
    const [cursor] = await q<{ block_number: string; t: string }>(
      `SELECT c.block_number::text, b.timestamp::text AS t FROM cursors c JOIN blocks b ON b.chain_id = c.chain_id AND b.number = c.block_number
       WHERE c.job = 'roots' AND c.chain_id = $1`,
      [CHAIN],
    );
    await rebuild();
    const all = await read('/v4/rewards/total/distributed');
    expect(all.via).to.equal('rollup');
    const now = (await loadChainTime(demo.h.deps.pg, CHAIN))!;
    expect(now).to.be.at.least(Number(cursor!.t));
    // The last root pending again: its dispute period ends 1,000 s after the chain's time.
    await q(
      'UPDATE roots SET end_of_dispute_period = $3 WHERE chain_id = $1 AND block_number = $2 AND log_index = $4',
      [CHAIN, last!.block_number, now + 1000, last!.log_index],
    );
    const farBlock = Number(cursor!.block_number) + 1_000_000;
    try {
      // Not a write the figures depend on (no marker), but the live root moved: the rollup is not used.
      const pending = await read('/v4/rewards/total/distributed');
      expect(pending.via).to.equal('exact');
      expect(pending.body as number).to.be.lessThan(all.body as number);
      await rebuild();
      expect((await read('/v4/rewards/total/distributed')).via).to.equal('rollup');
      // The chain's clock passes the end of the dispute period (the roots job indexed a later block).
      await q(
        `INSERT INTO blocks (chain_id, number, hash, parent_hash, timestamp) VALUES ($1, $2, '0xfar', '0xfar', $3)`,
        [CHAIN, farBlock, now + 2000],
      );
      await q(`UPDATE cursors SET block_number = $2 WHERE job = 'roots' AND chain_id = $1`, [CHAIN, farBlock]);
      expect(await dirtyMarkers(), 'markers').to.equal(0);
      const live = await read('/v4/rewards/total/distributed');
      expect(live.via).to.equal('exact');
      same(live.body, all.body, 'the root is live again');
      expect(await rebuild()).to.include({ rebuilt: 1 });
      const rolled = await read('/v4/rewards/total/distributed');
      expect(rolled.via).to.equal('rollup');
      same(rolled.body, all.body, 'from the rebuilt rollup');
    } finally {
      await q(`UPDATE cursors SET block_number = $2 WHERE job = 'roots' AND chain_id = $1`, [
        CHAIN,
        cursor!.block_number,
      ]);
      await q('DELETE FROM blocks WHERE chain_id = $1 AND number = $2', [CHAIN, farBlock]);
      await q(
        'UPDATE roots SET end_of_dispute_period = $3 WHERE chain_id = $1 AND block_number = $2 AND log_index = $4',
        [CHAIN, last!.block_number, last!.end, last!.log_index],
      );
    }
  });

  it('is marked dirty by the writes the figures depend on, not by others; the job rebuilds only then', async function () {
    await rebuild();
    expect(await rebuild()).to.deep.equal({ rebuilt: 0 });
    const marks = async (what: string, sql: string, args: unknown[], expected: boolean) => {
      await q(sql, args);
      expect(await dirtyMarkers(), what).to.equal(expected ? 1 : 0);
      if (expected) await rebuild();
    };
    // Writes that leave the figures alone: a campaign's fee, a price's extremes, a token's name.
    await marks('fee', 'UPDATE campaigns SET fee_amount = fee_amount WHERE distribution_chain_id = $1', [CHAIN], false);
    await marks('price extremes', 'UPDATE token_price_history SET max = max + 1', [], false);
    await marks('token name', `UPDATE tokens SET name = name || '' WHERE chain_id = $1`, [CHAIN], false);
    await marks('no row', 'DELETE FROM campaign_privacy WHERE false', [], false);
    // Writes the figures read.
    await marks('price close', 'UPDATE token_price_history SET close = close * 2', [], true);
    await marks('price close back', 'UPDATE token_price_history SET close = close / 2', [], true);
    const oldDay = `INSERT INTO token_price_history (token_id, day, open, close, min, max, source, updated_at)
      SELECT id, '2001-01-01', 1, 1, 1, 1, 'test', now() FROM tokens WHERE chain_id = $1 AND lower(address) = $2`;
    await marks('a new day', oldDay, [CHAIN, testToken], true);
    await marks('the same day again', `${oldDay} ON CONFLICT DO NOTHING`, [CHAIN, testToken], false);
    await marks('the day removed', `DELETE FROM token_price_history WHERE day = '2001-01-01'`, [], true);
    await marks('decimals', 'UPDATE tokens SET decimals = decimals WHERE chain_id = $1', [CHAIN], false);
    await marks(
      'test flag',
      'UPDATE tokens SET is_test = NOT is_test WHERE chain_id = $1 AND lower(address) = $2',
      [CHAIN, testToken],
      true,
    );
    await marks(
      'test flag back',
      'UPDATE tokens SET is_test = NOT is_test WHERE chain_id = $1 AND lower(address) = $2',
      [CHAIN, testToken],
      true,
    );
    await marks('revoked', 'UPDATE roots SET revoked = revoked OR false WHERE chain_id = $1', [CHAIN], false);
    await marks('deltas', 'UPDATE reward_campaign_deltas SET delta = delta + 0 WHERE chain_id = $1', [CHAIN], false);
    await marks(
      'campaign type',
      'UPDATE campaigns SET campaign_type = campaign_type + 0 WHERE id = $1',
      [privateId],
      false,
    );
    // The campaigns' bounds and opportunity (the status and opportunity rollups read them).
    await marks(
      'campaign end',
      'UPDATE campaigns SET end_timestamp = end_timestamp + 1 WHERE id = $1',
      [privateId],
      true,
    );
    await marks(
      'campaign end back',
      'UPDATE campaigns SET end_timestamp = end_timestamp - 1 WHERE id = $1',
      [privateId],
      true,
    );
    await marks(
      'campaign start',
      'UPDATE campaigns SET start_timestamp = start_timestamp + 0 WHERE id = $1',
      [privateId],
      false,
    );
    await marks(
      'opportunity',
      `UPDATE campaigns SET opportunity_id = opportunity_id || 'x' WHERE id = $1`,
      [privateId],
      true,
    );
    await marks(
      'opportunity back',
      `UPDATE campaigns SET opportunity_id = left(opportunity_id, -1) WHERE id = $1`,
      [privateId],
      true,
    );
    await marks(
      'privacy',
      'UPDATE campaign_privacy SET is_private = NOT is_private WHERE campaign_db_id = $1',
      [privateId],
      true,
    );
    await marks(
      'privacy back',
      'UPDATE campaign_privacy SET is_private = NOT is_private WHERE campaign_db_id = $1',
      [privateId],
      true,
    );
    expect(await rebuild()).to.deep.equal({ rebuilt: 0 });
  });

  describe('a campaign inserted after the rebuild (2026_12_06_01: noted, and checked by each read in its own snapshot)', function () {
    const copyCampaign = `INSERT INTO campaigns
      SELECT (jsonb_populate_record(c, jsonb_build_object('id', $2::text, 'campaign_id', $3::text))).* FROM campaigns c WHERE c.id = $1`;
    /** A delta of `units` for `campaignId` at the first counted tree of the chain (it counts in the figures). */
    const deltaFor = (campaignId: string, units: string) =>
      q(
        `INSERT INTO reward_campaign_deltas (chain_id, seq, campaign_id, token, delta)
         SELECT chain_id, seq, $2, token, $3::numeric FROM reward_campaign_deltas WHERE chain_id = $1 ORDER BY seq, campaign_id LIMIT 1`,
        [CHAIN, campaignId, units],
      );
    const notes = async () =>
      (await q<{ n: number }>('SELECT count(*)::int AS n FROM distributed_rollup_new_campaigns'))[0]!.n;
    const total = '/v4/rewards/total/distributed';
    const ids = ['rollup-new-1', 'rollup-new-2', 'rollup-new-3'];
    const campaignIds = [`0x${'ab'.repeat(32)}`, `0x${'cd'.repeat(32)}`, `0x${'ef'.repeat(32)}`];
    afterEach(async function () {
      for (const table of ['campaign_privacy', 'campaign_overrides'])
        await q(`DELETE FROM ${table} WHERE campaign_db_id = ANY($1)`, [ids]);
      await q('DELETE FROM campaigns WHERE id = ANY($1)', [ids]);
      await q('DELETE FROM reward_campaign_deltas WHERE chain_id = $1 AND lower(campaign_id) = ANY($2)', [
        CHAIN,
        campaignIds,
      ]);
      await rebuild();
    });

    it('keeps the rollups answering while no root distributed for it (its override and privacy row too); the job drops its note', async function () {
      await rebuild();
      const before = await read(total);
      expect(before.via).to.equal('rollup');
      await q(copyCampaign, [privateId, ids[0], campaignIds[0]]);
      await q(
        `INSERT INTO campaign_overrides (chain_id, campaign_db_id, campaign_id, campaign_type, compute_chain_id, start_timestamp,
           end_timestamp, campaign_data, opportunity_id, params, block_number, block_hash, tx_hash, log_index, timestamp)
         SELECT c.distribution_chain_id, c.id, c.campaign_id, c.campaign_type, c.compute_chain_id, c.start_timestamp, c.end_timestamp,
           c.campaign_data, coalesce(c.opportunity_id, 'o'), c.params, c.block_number, c.block_hash, $2, 0, 0
         FROM campaigns c WHERE c.id = $1`,
        [ids[0], `0x${'ee'.repeat(32)}`],
      );
      await q("INSERT INTO campaign_privacy (campaign_db_id, is_private, updated_by) VALUES ($1, false, 'test')", [
        ids[0],
      ]);
      expect(await dirtyMarkers(), 'no marker').to.equal(0);
      expect(await notes(), 'noted by each of the three writes').to.equal(3);
      const after = await read(total);
      expect(after.via).to.equal('rollup');
      same(after.body, before.body, 'unchanged');
      expect(await rebuild()).to.deep.equal({ rebuilt: 0, campaignNotesDropped: 3 });
      expect(await notes()).to.equal(0);
      // A root distributing for it later comes with its own marker.
      await deltaFor(campaignIds[0]!, '4000000000000000000');
      expect(await dirtyMarkers()).to.equal(1);
      const exact = await read(total);
      expect(exact.via).to.equal('exact');
      expect(exact.body as number, 'the new campaign counts').to.be.greaterThan(before.body as number);
      expect(await rebuild()).to.include({ rebuilt: 1 });
      const rolled = await read(total);
      expect(rolled.via).to.equal('rollup');
      same(rolled.body, exact.body, 'rebuilt');
    });

    it('answers exactly once a campaign whose deltas the rollups left out commits, whenever it began (the interleaving a check at insert time got wrong)', async function () {
      await rebuild();
      const before = await read(total);
      const indexer = await demo.h.deps.pg.connect();
      try {
        // The campaigns job inserts the campaign; before it commits, a tree naming the campaign (in another case)
        // is stored and the job rebuilds the rollups: their snapshot sees the deltas, not the campaign, so they
        // leave the deltas out and clear the deltas' marker.
        await indexer.query('BEGIN');
        await indexer.query(copyCampaign, [privateId, ids[1], campaignIds[1]!.toUpperCase()]);
        await deltaFor(campaignIds[1]!, '4000000000000000000');
        expect(await rebuild()).to.include({ rebuilt: 1, dirtyMarkers: 1, campaignNotes: 0 });
        const stillOut = await read(total);
        expect(stillOut.via).to.equal('rollup');
        same(stillOut.body, before.body, 'the campaign is not committed yet: nothing changed for a reader');
        await indexer.query('COMMIT');
        expect(await dirtyMarkers(), 'no marker: the campaign insert decided nothing').to.equal(0);
        const exact = await read(total);
        expect(exact.via, 'its note and its delta are both visible to the read').to.equal('exact');
        expect(exact.body as number).to.be.greaterThan(before.body as number);
        expect(await rebuild()).to.include({ rebuilt: 1, campaignNotes: 1 });
        const rolled = await read(total);
        expect(rolled.via).to.equal('rollup');
        same(rolled.body, exact.body, 'rebuilt with the campaign');
      } finally {
        await indexer.query('ROLLBACK').catch(() => {});
        indexer.release();
      }
    });

    it('walks from the notes, whatever the statistics say (the plan at a million campaigns otherwise scans them)', async function () {
      // The notes' table as after a burst of inserts before autovacuum: many rows, its statistics never gathered.
      await q(`INSERT INTO distributed_rollup_new_campaigns (campaign_db_id, xid)
        SELECT id, 1 FROM campaigns`);
      await q('ANALYZE campaigns');
      try {
        const [row] = await q<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
          `EXPLAIN (FORMAT JSON) SELECT ${NEW_CAMPAIGN_DISTRIBUTED}`,
        );
        const scans: string[] = [];
        const walk = (node: PlanNode) => {
          if (node['Relation Name']) scans.push(`${node['Node Type']} ${node['Relation Name']}`);
          for (const child of node.Plans ?? []) walk(child);
        };
        walk(row!['QUERY PLAN'][0]!.Plan);
        expect(scans[0], 'the outer scan').to.match(/distributed_rollup_new_campaigns$/);
        expect(
          scans.filter((s) => /Seq Scan (campaigns|reward_campaign_deltas)$/.test(s)),
          'no whole scan',
        ).to.deep.equal([]);
      } finally {
        await q('DELETE FROM distributed_rollup_new_campaigns');
      }
    });

    it('keeps the note of a campaign a delta names until a rebuild whose snapshot saw the campaign', async function () {
      await deltaFor(campaignIds[2]!, '4000000000000000000');
      await rebuild();
      const before = await read(total);
      await q(copyCampaign, [privateId, ids[2], campaignIds[2]]);
      expect((await read(total)).via).to.equal('exact');
      // The job's drop keeps it (a delta names it); only the rebuild clears it.
      const run = await rebuild();
      expect(run).to.include({ rebuilt: 1, campaignNotes: 1 });
      expect(run).to.not.have.property('campaignNotesDropped');
      const rolled = await read(total);
      expect(rolled.via).to.equal('rollup');
      expect(rolled.body as number).to.be.greaterThan(before.body as number);
      expect(await notes()).to.equal(0);
    });
  });
});
