import { expect } from 'chai';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

type Node = { campaignId: string; storingIds: string[]; subCampaigns: Node[] };

/** Storing-ids and linked trees on the seeded demo, whose first live hold campaign has two sub-campaigns. */
describe('campaign trees on the seeded demo (storing-ids, linked)', function () {
  let demo: ReferenceDemo;
  let parent: { id: string; opportunity_id: string; compute_chain_id: number; main_parameter: string };
  let children: string[];

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    const { rows } = await demo.h.apiPg.query<{
      id: string;
      opportunity_id: string;
      compute_chain_id: number;
      main_parameter: string;
    }>(
      'SELECT id, opportunity_id, compute_chain_id, main_parameter FROM campaigns_current WHERE id IN (SELECT parent_campaign_id FROM campaigns WHERE parent_campaign_id IS NOT NULL)',
    );
    expect(rows).to.have.length(1);
    parent = rows[0]!;
    children = (
      await demo.h.apiPg.query<{ id: string }>('SELECT id FROM campaigns WHERE parent_campaign_id = $1 ORDER BY id', [
        parent.id,
      ])
    ).rows.map((r) => r.id);
    expect(children).to.have.length(2);
  });

  after(async () => demo?.close());

  it("GET /v4/campaigns/{id}/storing-ids: the campaign's storing ids and its sub-campaigns recursively", async function () {
    const res = await demo.h.request().get(`/v4/campaigns/${parent.id}/storing-ids`).expect(200);
    const tree = res.body as Node;
    expect(tree.campaignId).to.equal(parent.id);
    expect(tree.storingIds).to.deep.equal([`${parent.compute_chain_id}_${parent.main_parameter}`]);
    expect(tree.subCampaigns.map((n) => n.campaignId).sort()).to.deep.equal(children);
    for (const child of tree.subCampaigns) expect(child.subCampaigns).to.deep.equal([]);
  });

  it('GET /v4/opportunities/{id}/storing-ids: one tree per live root campaign, sub-campaigns nested', async function () {
    const res = await demo.h.request().get(`/v4/opportunities/${parent.opportunity_id}/storing-ids`).expect(200);
    const trees = res.body as Node[];
    const root = trees.find((t) => t.campaignId === parent.id);
    expect(root, 'the live parent is a root tree').to.exist;
    expect(root!.subCampaigns.map((n) => n.campaignId).sort()).to.deep.equal(children);
    expect(
      trees.map((t) => t.campaignId),
      'sub-campaigns are not roots',
    ).to.not.include.members(children);
    await demo.h.request().get('/v4/opportunities/999999/storing-ids').expect(404);
  });

  it('GET /v4/campaigns/{id}/linked: parents up to the root plus the subtree, self marked', async function () {
    const fromChild = (await demo.h.request().get(`/v4/campaigns/${children[0]}/linked`).expect(200)).body as {
      campaignId: string;
      parentCampaignId: string | null;
      self: boolean;
    }[];
    expect(fromChild.map((n) => n.campaignId)).to.deep.equal([parent.id, children[0]]);
    expect(fromChild.find((n) => n.self)!.campaignId).to.equal(children[0]);
    expect(fromChild[1]!.parentCampaignId).to.equal(parent.id);
    const fromParent = (await demo.h.request().get(`/v4/campaigns/${parent.id}/linked`).expect(200)).body as {
      campaignId: string;
      self: boolean;
    }[];
    expect(fromParent.map((n) => n.campaignId).sort()).to.deep.equal([parent.id, ...children].sort());
    expect(fromParent.filter((n) => n.self).map((n) => n.campaignId)).to.deep.equal([parent.id]);
    expect(fromParent[0]).to.not.have.property('campaign');
  });

  it('GET /v4/campaigns/{id}/linked?campaigns=true: each node carries its full Campaign record', async function () {
    const nodes = (
      await demo.h.request().get(`/v4/campaigns/${parent.id}/linked`).query({ campaigns: 'true' }).expect(200)
    ).body as {
      campaignId: string;
      onChainCampaignId: string;
      campaign: { id: string; campaignId: string; opportunityId: string; rewardToken: unknown } | null;
    }[];
    expect(nodes.map((n) => n.campaignId).sort()).to.deep.equal([parent.id, ...children].sort());
    for (const n of nodes) {
      expect(n.campaign, n.campaignId).to.not.equal(null);
      expect(n.campaign).to.include({ id: n.campaignId, campaignId: n.onChainCampaignId });
      expect(n.campaign!.rewardToken).to.be.an('object');
    }
    const own = (await demo.h.request().get(`/v4/campaigns/${parent.id}`).expect(200)).body as Record<string, unknown>;
    expect(nodes.find((n) => n.campaignId === parent.id)!.campaign).to.deep.equal(own);
    const bad = await demo.h
      .request()
      .get(`/v4/campaigns/${parent.id}/linked`)
      .query({ campaigns: 'maybe' })
      .expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['campaigns']);
  });
});
