import { expect } from 'chai';
import { healthStatus, needsAttention } from '../../../../api/reads/attention.js';

const up = { ok: true };
const healthy = {
  postgres: up,
  elasticsearch: { ok: true, clusterStatus: 'yellow' },
  chains: [{ id: 1, name: 'Ethereum', rpc: up }],
};
const priced = { unpricedLiveCampaigns: { campaigns: 0, tokens: [] } };
const ok = { status: 'ok' as const, reasons: [] };
const job = (
  name: string,
  attention: { status: 'failing' | 'lagging' | 'paused' | 'never-run' | 'ok'; reasons: string[] },
) => ({
  name,
  attention,
});

describe('api/reads/attention: one list from the facts of /v4/health and the job cards', () => {
  it('is empty only when dependencies answer, health is ok and no job fails, lags or is paused', () => {
    expect(
      needsAttention({
        dependencies: healthy,
        health: priced,
        jobs: [job('blocks', ok), job('retention', { status: 'never-run', reasons: ['no run recorded yet'] })],
      }),
    ).to.deep.equal([]);
    expect(healthStatus(healthy, priced)).to.deep.equal({ status: 'ok', dependenciesOk: true, reasons: [] });
  });

  it('lists a paused job (the page said "Nothing" while benchmark-rate was paused, #44)', () => {
    const items = needsAttention({
      dependencies: healthy,
      health: priced,
      jobs: [
        job('benchmark-rate', { status: 'paused', reasons: ['paused by an operator: scheduled runs are skipped'] }),
      ],
    });
    expect(items).to.deep.equal([
      {
        kind: 'paused',
        subject: 'job:benchmark-rate',
        text: 'benchmark-rate paused by an operator: scheduled runs are skipped',
      },
    ]);
  });

  it('lists what degrades /v4/health: live campaigns without a fresh reward-token price, with the same sentence', () => {
    const health = {
      unpricedLiveCampaigns: {
        campaigns: 21,
        tokens: [
          { id: '1-0xa', chainId: 1, address: '0xa', symbol: 'USDCx', campaigns: 10 },
          { id: '1-0xb', chainId: 1, address: '0xb', symbol: null, campaigns: 6 },
          { id: '1-0xc', chainId: 1, address: '0xc', symbol: 'preTGE', campaigns: 3 },
          { id: '8453-0xc', chainId: 8453, address: '0xc', symbol: 'preTGE', campaigns: 2 },
        ],
      },
    };
    const status = healthStatus(healthy, health);
    expect(status.status).to.equal('degraded');
    expect(status.dependenciesOk).to.equal(true);
    expect(status.reasons).to.deep.equal([
      '21 live campaigns have no fresh reward-token price (USDCx on chain 1 ×10, 0xb on chain 1 ×6, preTGE on chain 1 ×3, preTGE on chain 8453 ×2): their figures count it as 0',
    ]);
    expect(needsAttention({ dependencies: healthy, health, jobs: [] })).to.deep.equal([
      { kind: 'degraded', subject: 'health', text: `Health degraded: ${status.reasons[0]}` },
    ]);
  });

  it('puts unreachable dependencies first, then degraded health, failing, lagging and paused jobs', () => {
    const dependencies = {
      postgres: up,
      elasticsearch: { ok: false, error: 'no answer within 2000 ms' },
      chains: [{ id: 8453, name: 'Base', rpc: { ok: false, error: 'connection refused' } }],
    };
    const items = needsAttention({
      dependencies,
      health: {
        unpricedLiveCampaigns: {
          campaigns: 1,
          tokens: [{ id: '1-0xa', chainId: 1, address: '0xa', symbol: 'A', campaigns: 1 }],
        },
      },
      jobs: [
        job('prices', { status: 'paused', reasons: ['paused by an operator: scheduled runs are skipped'] }),
        job('campaigns', { status: 'lagging', reasons: ['chain 8453: 904 s behind the head (5 blocks)'] }),
        job('blocks', { status: 'failing', reasons: ['chain 8453: 2 failed runs in a row (backing off)'] }),
      ],
    });
    expect(items.map((i) => [i.kind, i.subject])).to.deep.equal([
      ['dependency', 'elasticsearch'],
      ['dependency', 'rpc:8453'],
      ['degraded', 'health'],
      ['failing', 'job:blocks'],
      ['lagging', 'job:campaigns'],
      ['paused', 'job:prices'],
    ]);
    expect(items[1]!.text).to.equal('Base RPC unreachable: connection refused');
    expect(items[3]!.text).to.equal('blocks failing: chain 8453: 2 failed runs in a row (backing off)');
    const status = healthStatus(dependencies, null);
    expect(status).to.deep.equal({
      status: 'degraded',
      dependenciesOk: false,
      reasons: ['Elasticsearch unreachable: no answer within 2000 ms', 'Base RPC unreachable: connection refused'],
    });
  });

  it('lists a red cluster, which does not make the dependencies down', () => {
    const dependencies = { ...healthy, elasticsearch: { ok: true, clusterStatus: 'red' } };
    expect(needsAttention({ dependencies, health: priced, jobs: [] })).to.deep.equal([
      { kind: 'dependency', subject: 'elasticsearch', text: 'Elasticsearch cluster health red' },
    ]);
    expect(healthStatus(dependencies, priced).status).to.equal('ok');
  });
});
