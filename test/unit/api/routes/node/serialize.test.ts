import { expect } from 'chai';
import { contractNodes, opportunityNode } from '../../../../../api/routes/node/serialize.js';
import type { ChainConfig } from '../../../../../internal/config.js';

const chain: Pick<ChainConfig, 'id' | 'distributionCreator' | 'distributor' | 'startBlock'> = {
  id: 7,
  distributionCreator: '0xAA00000000000000000000000000000000000001',
  distributor: '0xbb00000000000000000000000000000000000002',
  startBlock: 12,
};

describe('api/routes/node/serialize', () => {
  it('contractNodes labels our contracts case-insensitively, per chain', () => {
    const [n] = contractNodes([chain], '0xaa00000000000000000000000000000000000001', undefined);
    expect(n).to.include({
      id: '7-0xaa00000000000000000000000000000000000001',
      protocol: 'DISTRIBUTION_CREATOR',
      creationBlockNumber: 12,
      chainId: 7,
    });
    expect(contractNodes([chain], '0xaa00000000000000000000000000000000000001', 8)).to.deep.equal([]);
    expect(contractNodes([chain], '0xcc00000000000000000000000000000000000003', undefined)).to.deep.equal([]);
  });

  it('opportunityNode names every node field, numbers for blocks', () => {
    const n = opportunityNode({
      id: '9',
      chain_id: 7,
      type: 'CLAMM',
      identifier: '0xpool',
      action: 'POOL',
      creation_block: '15',
      last_fetched: null,
    });
    expect(Object.keys(n)).to.have.members([
      'id',
      'chainId',
      'protocol',
      'recipient',
      'nodesSourceId',
      'creationBlockNumber',
      'metadata',
      'nodeSource',
    ]);
    expect(n).to.deep.include({ creationBlockNumber: 15, recipient: '0xpool', protocol: 'CLAMM' });
    expect(n.nodeSource).to.deep.equal({
      id: 'opportunities-7',
      protocol: 'CLAMM',
      lastFetchedBlockNumber: 0,
      chainId: 7,
      source: 'opportunities',
      topics: [],
    });
  });
});
