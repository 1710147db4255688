import { expect } from 'chai';
import type { LiveRootState } from '../../../../../api/reads/roots.js';
import { serializeLiveRoot, serializeRoot } from '../../../../../api/reads/roots/serialize.js';

describe('api/routes/roots/serialize serializeRoot', () => {
  it('names root, chainId, epoch (hour of the timestamp), timestamp as a string and isLatest', () => {
    expect(serializeRoot({ root: '0xaa', chain_id: 5, timestamp: '7199', is_latest: true })).to.deep.equal({
      root: '0xaa',
      chainId: 5,
      epoch: 1,
      timestamp: '7199',
      isLatest: true,
    });
    expect(serializeRoot({ root: '0xbb', chain_id: 5, timestamp: '7200', is_latest: false }).epoch).to.equal(2);
  });
});

const ZERO = `0x${'0'.repeat(64)}`;
const A = `0x${'a'.repeat(64)}`;
const B = `0x${'b'.repeat(64)}`;
const root = (r: string) =>
  ({ root: r }) as unknown as LiveRootState['latest'][number] & NonNullable<LiveRootState['live']>;

describe('api/routes/roots/serialize serializeLiveRoot', function () {
  it('answers zero roots for a chain without any, as the Distributor getters do', function () {
    expect(
      serializeLiveRoot({ latest: [], disputeOpen: false, disputer: null, now: null, live: null }, 0),
    ).to.deep.equal({
      live: ZERO,
      tree: ZERO,
      lastTree: ZERO,
      endOfDisputePeriod: 0,
      pending: null,
      disputeOpen: false,
      chainTime: null,
    });
  });

  it('names the latest root pending while the previous one is live', function () {
    const pending = serializeLiveRoot(
      { latest: [root(B), root(A)], disputeOpen: true, disputer: null, now: 100, live: root(A) },
      200,
    );
    expect(pending).to.deep.equal({
      live: A,
      tree: B,
      lastTree: A,
      endOfDisputePeriod: 200,
      pending: B,
      disputeOpen: true,
      chainTime: 100,
    });
    const live = serializeLiveRoot(
      { latest: [root(B), root(A)], disputeOpen: false, disputer: null, now: 300, live: root(B) },
      200,
    );
    expect(live).to.include({ live: B, pending: null });
  });

  it('names the disputer while a dispute is open and its disputer is known (the hosted `disputer`), never otherwise', function () {
    const D = '0x00000000000000000000000000000000000000d1';
    const open = { latest: [root(B), root(A)], disputeOpen: true, now: 100, live: root(A) };
    expect(serializeLiveRoot({ ...open, disputer: D }, 200)).to.include({ disputeOpen: true, disputer: D });
    expect(serializeLiveRoot({ ...open, disputer: null }, 200)).to.not.have.property('disputer');
    expect(serializeLiveRoot({ ...open, disputeOpen: false, disputer: D }, 200)).to.not.have.property('disputer');
  });
});
