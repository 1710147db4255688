import { expect } from 'chai';
import { formatJobListings } from '../../../../jobs/commands/list.js';
import { toJobListing } from '../../../../domain/jobs/listJobs.js';
import type { JobStatus } from '../../../../domain/jobs/jobStatus.js';
import type { Job } from '../../../../domain/jobs/types.js';

const job = (name: string): Job => ({
  name,
  description: `${name} job`,
  defaultCron: '*/5 * * * * *',
  run: async () => ({ ranges: [], counts: {} }),
});

const status: JobStatus = {
  job: 'campaigns',
  paused: true,
  pausedAt: new Date('2026-11-21T10:00:00Z'),
  cronOverride: '*/30 * * * * *',
  runs24h: 7,
  errors24h: 1,
  lastRun: {
    skipReason: null,
    status: 'failed',
    startedAt: new Date('2026-11-21T10:05:00.123Z'),
    finishedAt: new Date('2026-11-21T10:05:01.623Z'),
    durationMs: 1500,
    error: 'rpc down',
  },
  lastSuccessAt: new Date('2026-11-21T09:59:00Z'),
  chains: [
    {
      chainId: 31337,
      cursor: 40,
      canonicalHead: 50,
      lagBlocks: 10,
      lastRun: null,
      consecutiveFailures: 0,
      cursorTimestamp: 1000,
      canonicalHeadTimestamp: 1020,
    },
  ],
};

describe('jobs/commands/list', () => {
  it('lists the effective schedule and its source, state, last run, errors and lag against the canonical head', () => {
    const listing = toJobListing(
      job('campaigns'),
      status,
      { campaigns: '*/10 * * * * *' },
      new Map([[31337, { number: 99, timestamp: 1100 }]]),
    );
    expect(listing).to.deep.include({
      schedule: '*/30 * * * * *',
      scheduleSource: 'job_state',
      state: 'paused',
      errors24h: 1,
      runs24h: 7,
    });
    expect(listing.chains).to.deep.equal([
      {
        chainId: 31337,
        cursor: 40,
        head: 50,
        lagBlocks: 10,
        lagSeconds: 20,
        lagNote: null,
        lastRun: null,
        consecutiveFailures: 0,
      },
    ]);
  });

  it('measures the blocks job against the node head', () => {
    const blocks = toJobListing(
      job('blocks'),
      {
        ...status,
        job: 'blocks',
        paused: false,
        cronOverride: null,
        chains: [
          {
            chainId: 31337,
            cursor: 50,
            canonicalHead: 50,
            lagBlocks: 0,
            lastRun: null,
            consecutiveFailures: 0,
            cursorTimestamp: 1020,
            canonicalHeadTimestamp: 1020,
          },
        ],
      },
      {},
      new Map([[31337, { number: 58, timestamp: 1036 }]]),
    );
    expect(blocks).to.deep.include({ state: 'active', schedule: '*/5 * * * * *', scheduleSource: 'default' });
    expect(blocks.chains[0]).to.deep.equal({
      chainId: 31337,
      cursor: 50,
      head: 58,
      lagBlocks: 8,
      lagSeconds: 16,
      lagNote: null,
      lastRun: null,
      consecutiveFailures: 0,
    });
  });

  it('lists a job that never ran as active with no run', () => {
    expect(toJobListing(job('publish'), undefined, {}, new Map())).to.deep.include({
      state: 'active',
      lastRun: null,
      lastSuccessAt: null,
      errors24h: 0,
      chains: [],
    });
  });

  it('formats aligned rows with chain and error lines', () => {
    const lines = formatJobListings([
      toJobListing(job('campaigns'), status, {}, new Map()),
      toJobListing(job('publish'), undefined, {}, new Map()),
    ]);
    expect(lines[0]).to.match(/^JOB\s+SCHEDULE\s+STATE\s+LAST RUN\s+LAST SUCCESS\s+ERRORS 24H$/);
    expect(lines[1]).to.match(
      /^campaigns\s+\*\/30 \* \* \* \* \* \(job_state\)\s+paused\s+failed 2026-11-21T10:05:00Z 1\.50s\s+2026-11-21T09:59:00Z\s+1\/7 runs$/,
    );
    expect(lines[2]).to.equal('  chain 31337: cursor 40, head 50, lag 10 blocks, 20 s');
    expect(lines[3]).to.equal('  last error: rpc down');
    expect(lines[4]).to.match(/^publish\s+\*\/5 \* \* \* \* \* \(default\)\s+active\s+never\s+never\s+0\/0 runs$/);
    expect(lines[1]!.indexOf('paused')).to.equal(lines[4]!.indexOf('active'));
  });

  it("says which chain's unit is failing, and a unit that has no cursor yet", () => {
    const failing: JobStatus = {
      ...status,
      chains: [
        {
          chainId: 31337,
          cursor: 40,
          canonicalHead: 50,
          lagBlocks: 10,
          lastRun: null,
          consecutiveFailures: 0,
          cursorTimestamp: 1000,
          canonicalHeadTimestamp: 1020,
        },
        {
          chainId: 8453,
          cursor: null,
          canonicalHead: null,
          lagBlocks: null,
          cursorTimestamp: null,
          canonicalHeadTimestamp: null,
          lastRun: {
            status: 'failed',
            startedAt: new Date(0),
            finishedAt: new Date(1),
            error: 'HTTP 503',
            skipReason: null,
          },
          consecutiveFailures: 3,
        },
      ],
    };
    const lines = formatJobListings([toJobListing(job('campaigns'), failing, {}, new Map())]);
    expect(lines[2]).to.equal('  chain 31337: cursor 40, head 50, lag 10 blocks, 20 s');
    expect(lines[3]).to.equal(
      '  chain 8453: cursor none yet, head ?, lag unknown (no block range completed on this chain yet), failing: 3 in a row (HTTP 503)',
    );
  });
});
