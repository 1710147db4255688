import { expect } from 'chai';
import { signSession } from '../../../api/identity/jwt.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

type Caller = 'anonymous' | 'recipient' | 'grantee' | 'creator' | 'backOffice';
const CALLERS: Caller[] = ['anonymous', 'recipient', 'grantee', 'creator', 'backOffice'];

/** One private campaign of the demo, with who is who around it. */
type Subject = {
  name: string;
  recipientsCanView: boolean;
  /** Internal id of its parent campaign, for a sub-campaign. */
  parentId?: string;
  /** Has leaves in the live tree (rewards, claims, metrics). */
  rewarded: boolean;
  id: string;
  onChainId: string;
  opportunityId: string;
  creator: string;
  recipient: string;
  grantee: string;
};

/** A read that can return campaign data: REST path (GET) or GraphQL query, built for one subject. */
type Read = {
  name: string;
  rest?: (s: Subject) => string;
  graphql?: (s: Subject) => string;
  pick?: (body: any) => unknown;
}; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Every route and GraphQL field that can return a campaign, its ids, metrics, rewards, claims or
 * family tree (README "Campaign visibility"). A read added tomorrow that serves campaign data
 * belongs here. Paths are spelled as an attacker would send them: without `showPrivate`, and with it.
 */
const READS: Read[] = [
  { name: 'campaign by id', rest: (s) => `/v4/campaigns/${s.id}` },
  { name: 'campaign by id, showPrivate', rest: (s) => `/v4/campaigns/${s.id}?showPrivate=true` },
  { name: 'campaign by chain-id', rest: (s) => `/v4/campaigns/31337-${s.onChainId}?showPrivate=true` },
  { name: 'campaign list', rest: () => '/v4/campaigns?items=100&test=true' },
  { name: 'campaign list, showPrivate', rest: () => '/v4/campaigns?items=100&test=true&showPrivate=true' },
  { name: 'campaign metrics', rest: (s) => `/v4/campaigns/${s.id}/metrics` },
  { name: 'creator campaign metrics', rest: (s) => `/v4/creators/campaigns/${s.id}` },
  { name: 'campaign storing ids', rest: (s) => `/v4/campaigns/${s.id}/storing-ids` },
  { name: 'campaign family', rest: (s) => `/v4/campaigns/${s.id}/linked` },
  // A sub-campaign's parent, read by whoever may read the parent: its family must not announce a hidden child.
  { name: "parent's family", rest: (s) => `/v4/campaigns/${s.parentId ?? s.id}/linked?campaigns=true` },
  { name: "parent's storing ids", rest: (s) => `/v4/campaigns/${s.parentId ?? s.id}/storing-ids` },
  {
    name: "parent's record, showPrivate",
    rest: (s) => `/v4/campaigns/${s.parentId ?? s.id}?showPrivate=true`,
  },
  { name: 'ratchet of the campaign', rest: (s) => `/v4/sofr-ratchet/campaign/${s.id}` },
  // The embedded campaign records; the opportunity document's own aggregates (records' breakdowns) are not covered yet (see README); the campaignId filter is (opportunities.test.ts).
  {
    name: 'opportunity with campaigns',
    rest: (s) => `/v4/opportunities/${s.opportunityId}/campaigns`,
    pick: (b) => b.campaigns,
  },
  {
    name: 'opportunities with campaigns',
    rest: () => '/v4/opportunities?campaigns=true&items=100&test=true',
    pick: (b) => (b as { campaigns: unknown }[]).map((o) => o.campaigns),
  },
  { name: 'opportunity storing ids', rest: (s) => `/v4/opportunities/${s.opportunityId}/storing-ids` },
  { name: 'rewards of the campaign', rest: (s) => `/v4/rewards?chainId=31337&campaignId=${s.onChainId}` },
  { name: 'rewards of the recipient', rest: (s) => `/v4/users/${s.recipient}/rewards?chainId=31337` },
  { name: 'claims of the campaign', rest: (s) => `/v4/claims?chainId=31337&campaignId=${s.onChainId}` },
  { name: 'claims of the chain', rest: () => '/v4/claims?chainId=31337&items=100' },
  { name: 'claim history of the recipient', rest: (s) => `/v4/claims/history/${s.recipient}` },
  { name: 'GraphQL campaign', graphql: (s) => `{ campaign(id: "${s.id}", showPrivate: true) { id campaignId } }` },
  {
    name: 'GraphQL campaigns',
    graphql: () => '{ campaigns(filter: { showPrivate: true, test: true }, items: 100) { id campaignId } }',
  },
  {
    name: 'GraphQL opportunity campaigns',
    graphql: (s) => `{ opportunity(id: "${s.opportunityId}") { campaigns { id campaignId } } }`,
  },
  {
    name: 'GraphQL rewards campaign',
    graphql: (s) =>
      `{ rewards(chainId: 31337, campaignId: "${s.onChainId}") { campaignId campaign { id campaignId } } }`,
  },
  {
    name: 'GraphQL user rewards',
    graphql: (s) =>
      `{ user(address: "${s.recipient}") { rewards(chainId: [31337]) { rewards { breakdowns { campaignId } } } } }`,
  },
];

/** Who may see the subject: the back office, its creator and grantees, its recipients only when recipientsCanView. */
const maySee = (s: Subject, caller: Caller) =>
  caller === 'backOffice' ||
  caller === 'creator' ||
  caller === 'grantee' ||
  (caller === 'recipient' && s.recipientsCanView);

describe('privacy matrix: private campaigns × every read of campaign data × every kind of caller', function () {
  let demo: ReferenceDemo;
  let subjects: Subject[];
  const as = (address: string) => ({
    Cookie: `jwt=${signSession({ secret: demo.h.config.jwtSecret, address, tier: 0 }).token}`,
  });
  const headersOf = (s: Subject, caller: Caller): Record<string, string> => {
    switch (caller) {
      case 'anonymous':
        return {};
      case 'recipient':
        return as(s.recipient);
      case 'grantee':
        return as(s.grantee);
      case 'creator':
        return as(s.creator);
      case 'backOffice':
        return { authorization: TEST_BACK_OFFICE_TOKEN };
    }
  };
  /** The response text of a read, lower case, and its status. */
  const read = async (r: Read, s: Subject, caller: Caller) => {
    const h = demo.h;
    const res = r.rest
      ? await h.request().get(r.rest(s)).set(headersOf(s, caller))
      : await h
          .request()
          .post('/graphql/v1')
          .set(headersOf(s, caller))
          .set('accept', 'application/json')
          .send({ query: r.graphql!(s) });
    // A problem body's detail and instance echo the caller's own request (the id it asked for): not served data.
    const body = /problem\+json/.test(String(res.headers['content-type']))
      ? { ...res.body, detail: undefined, instance: undefined }
      : res.status < 300 && r.pick
        ? r.pick(res.body)
        : res.body;
    return { status: res.status, text: JSON.stringify(withoutOthersConfiguration(body ?? null, s)).toLowerCase() };
  };
  /**
   * A served body without the own configuration of other campaigns: a public sub-campaign's
   * `params` (its on-chain data), `parentCampaignId` and `rootCampaignId` name its parent even when
   * the parent is private (README "Campaign visibility"); nothing else of another campaign may.
   */
  const withoutOthersConfiguration = (value: unknown, s: Subject): unknown => {
    if (Array.isArray(value)) return value.map((v) => withoutOthersConfiguration(v, s));
    if (!value || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    const isOtherCampaign =
      typeof record['campaignId'] === 'string' &&
      'parentCampaignId' in record &&
      record['id'] !== s.id &&
      String(record['campaignId']).toLowerCase() !== s.onChainId;
    return Object.fromEntries(
      Object.entries(record)
        .filter(([k]) => !(isOtherCampaign && ['params', 'parentCampaignId', 'rootCampaignId'].includes(k)))
        .map(([k, v]) => [k, withoutOthersConfiguration(v, s)]),
    );
  };
  const mentions = (text: string, s: Subject) => text.includes(s.onChainId.toLowerCase()) || text.includes(`"${s.id}"`);

  before(async function () {
    demo = await createReferenceDemo();
    const h = demo.h;
    // Three private subjects, the demo family included on purpose: its parent (rewards in the live
    // tree, public sub-campaigns naming it), another rewarded campaign, and one sub-campaign (its
    // parent's grantee may read the parent, never this child).
    const { rows } = await h.deps.pg.query<{
      id: string;
      campaign_id: string;
      opportunity_id: string;
      creator: string;
      recipient: string | null;
      role: 'parent' | 'other' | 'child';
    }>(
      `WITH family AS (SELECT parent_campaign_id AS parent, min(id) AS child FROM campaigns WHERE parent_campaign_id IS NOT NULL GROUP BY 1 ORDER BY 1 LIMIT 1),
         rewarded AS (SELECT DISTINCT ON (c.id) c.id, b.recipient FROM campaigns_current c
           JOIN reward_breakdowns b ON lower(b.campaign_id) = lower(c.campaign_id) AND b.chain_id = c.distribution_chain_id
           ORDER BY c.id, b.amount DESC, b.recipient),
         picked AS (
           (SELECT f.parent AS id, 'parent' AS role FROM family f)
           UNION ALL (SELECT r.id, 'other' FROM rewarded r JOIN campaigns_current c USING (id)
             WHERE c.opportunity_id IS NOT NULL AND c.parent_campaign_id IS NULL AND r.id NOT IN (SELECT parent FROM family)
               -- Its own recipient: campaign ids (and so which campaign comes first) follow the demo's start times.
               AND r.recipient IS DISTINCT FROM (SELECT pr.recipient FROM rewarded pr WHERE pr.id = (SELECT parent FROM family))
             ORDER BY r.id LIMIT 1)
           UNION ALL (SELECT f.child, 'child' FROM family f))
       SELECT c.id, lower(c.campaign_id) AS campaign_id, c.opportunity_id, lower(c.creator) AS creator, r.recipient, p.role
       FROM picked p JOIN campaigns_current c ON c.id = p.id LEFT JOIN rewarded r ON r.id = p.id`,
    );
    const byRole = (role: string) => {
      const row = rows.find((r) => r.role === role);
      if (!row) throw new Error(`the demo has no ${role} campaign for the privacy matrix`);
      return row;
    };
    const [parent, other, child] = [byRole('parent'), byRole('other'), byRole('child')];
    expect(parent.recipient, 'the demo family parent has rewards').to.be.a('string');
    expect(other.recipient, 'a second rewarded campaign').to.be.a('string');
    const subject = (
      r: typeof parent,
      name: string,
      recipientsCanView: boolean,
      grantee: string,
      recipient = r.recipient!,
    ): Subject => ({
      name,
      recipientsCanView,
      rewarded: r.recipient !== null,
      id: r.id,
      onChainId: r.campaign_id,
      opportunityId: r.opportunity_id,
      creator: r.creator,
      recipient,
      grantee,
    });
    subjects = [
      subject(parent, 'private family parent, recipientsCanView false', false, `0x${'1'.repeat(40)}`),
      subject(other, 'private, recipientsCanView true', true, `0x${'2'.repeat(40)}`),
      // No rewards: its "recipient" is the parent's grantee, who reads the parent (and its
      // childCampaignIds) but has no claim on this child and may not see it.
      {
        ...subject(
          child,
          'private sub-campaign, recipientsCanView false',
          false,
          `0x${'3'.repeat(40)}`,
          `0x${'1'.repeat(40)}`,
        ),
        parentId: parent.id,
      },
    ];
    for (const s of subjects) {
      await h
        .request()
        .patch(`/v4/campaigns/${s.id}/privacy`)
        .set(as(s.creator))
        .send({ isPrivate: true, recipientsCanView: s.recipientsCanView })
        .expect(200);
      await h
        .request()
        .post(`/v4/campaigns/${s.id}/access/grant`)
        .set(as(s.creator))
        .send({ userAddress: s.grantee })
        .expect(200);
    }
    // No subject's recipient is another's (a recipient of both would see the second legitimately).
    expect(new Set(subjects.map((x) => x.recipient)).size).to.equal(subjects.length);
  });
  after(async () => demo?.close());

  for (const r of READS) {
    it(`${r.name}: never serves a private campaign's ids to a caller who may not see it, never 5xx`, async function () {
      const leaks: string[] = [];
      for (const s of subjects) {
        for (const caller of CALLERS) {
          const res = await read(r, s, caller);
          if (res.status >= 500) leaks.push(`${s.name} as ${caller}: ${res.status}`);
          if (!maySee(s, caller) && mentions(res.text, s))
            leaks.push(`${s.name} as ${caller}: ${res.status} mentions ${s.id} / ${s.onChainId}`);
        }
      }
      expect(leaks).to.deep.equal([]);
    });
  }

  it('serves the private campaign itself to those who may see it (showPrivate=true, metrics, rewards)', async function () {
    for (const s of subjects) {
      for (const caller of CALLERS.filter((c) => maySee(s, c))) {
        for (const path of [
          `/v4/campaigns/${s.id}?showPrivate=true`,
          `/v4/campaigns/${s.id}/metrics`,
          `/v4/campaigns/${s.id}/linked`,
        ]) {
          const res = await demo.h.request().get(path).set(headersOf(s, caller));
          expect(res.status, `${path} as ${caller} (${s.name})`).to.equal(200);
        }
        const rewards = await demo.h
          .request()
          .get(`/v4/rewards?chainId=31337&campaignId=${s.onChainId}`)
          .set(headersOf(s, caller))
          .expect(200);
        if (s.rewarded) expect(rewards.body.length, `rewards as ${caller} (${s.name})`).to.be.greaterThan(0);
      }
      for (const caller of CALLERS.filter((c) => !maySee(s, c))) {
        await demo.h.request().get(`/v4/campaigns/${s.id}?showPrivate=true`).set(headersOf(s, caller)).expect(404);
        await demo.h.request().get(`/v4/campaigns/${s.id}/metrics`).set(headersOf(s, caller)).expect(404);
      }
    }
  });

  it('applies a privacy change to every read in the same request cycle: public again, then private again', async function () {
    const s = subjects[0]!;
    await demo.h
      .request()
      .patch(`/v4/campaigns/${s.id}/privacy`)
      .set(as(s.creator))
      .send({ isPrivate: false })
      .expect(200);
    expect(
      mentions((await read(READS.find((r) => r.name === 'opportunity with campaigns')!, s, 'anonymous')).text, s),
    ).to.equal(true);
    await demo.h.request().get(`/v4/campaigns/${s.id}/metrics`).expect(200);
    await demo.h
      .request()
      .patch(`/v4/campaigns/${s.id}/privacy`)
      .set(as(s.creator))
      .send({ isPrivate: true })
      .expect(200);
    expect(
      mentions((await read(READS.find((r) => r.name === 'opportunity with campaigns')!, s, 'anonymous')).text, s),
    ).to.equal(false);
    await demo.h.request().get(`/v4/campaigns/${s.id}/metrics`).expect(404);
  });

  it('builds the opportunity documents (campaign ids, APR/TVL/rewards records and breakdowns) from public campaigns only, as soon as the privacy change answered (no job run since)', async function () {
    const leaks: string[] = [];
    for (const s of subjects) {
      for (const path of [
        `/v4/opportunities/${s.opportunityId}`,
        '/v4/opportunities?items=100&test=true',
        `/v4/opportunities/${s.opportunityId}/campaigns`,
      ]) {
        const res = await demo.h.request().get(path).expect(200);
        if (mentions(JSON.stringify(withoutOthersConfiguration(res.body, s)).toLowerCase(), s))
          leaks.push(`${path} mentions ${s.name}`);
      }
      const gql = await demo.h
        .request()
        .post('/graphql/v1')
        .set('accept', 'application/json')
        .send({ query: `{ opportunity(id: "${s.opportunityId}") { id campaigns { id } } }` })
        .expect(200);
      if (mentions(JSON.stringify(withoutOthersConfiguration(gql.body, s)).toLowerCase(), s))
        leaks.push(`GraphQL opportunity mentions ${s.name}`);
    }
    expect(leaks).to.deep.equal([]);
  });
});
