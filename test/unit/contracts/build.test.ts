import { expect } from 'chai';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContractsBuildError, compileContracts, renderArtifacts, toIdentifierBase } from '../../../contracts/build.js';
import type { ContractArtifact } from '../../../contracts/build.js';

const artifactsDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../contracts/artifacts');

describe('contracts/build', () => {
  let artifacts: ContractArtifact[];

  before(function () {
    this.timeout(30_000);
    artifacts = compileContracts().artifacts;
  });

  it('compiling again reproduces the committed artifacts byte for byte', () => {
    const files = renderArtifacts(artifacts);
    const onDisk = readdirSync(artifactsDir).filter((f) => f.endsWith('.json') || f === 'index.ts');
    expect([...files.keys()].sort()).to.deep.equal(onDisk.sort());
    for (const [name, content] of files) {
      expect(readFileSync(join(artifactsDir, name), 'utf8'), `${name} differs: run npm run contracts:build`).to.equal(
        content,
      );
    }
  });

  it('emits only deployable contracts, with creation and runtime code', () => {
    expect(artifacts.map((a) => a.contractName)).to.deep.equal([
      'AaveV3PoolStandIn',
      'BoundedMulticall',
      'DistributionCreator',
      'Distributor',
      'Multicall3',
      'PriceFeed',
      'ShareVaultStandIn',
      'TestERC20',
      'UniswapV3Minter',
      'VyperLayoutToken',
    ]);
    for (const a of artifacts) {
      expect(a.bytecode).to.match(/^0x[0-9a-f]{100,}$/);
      // BoundedMulticall is only ever sent as creation code (a deployless eth_call): its runtime code reverts.
      if (a.contractName === 'BoundedMulticall') expect(a.deployedBytecode).to.equal('0x60806040525f5ffd');
      else expect(a.deployedBytecode).to.match(/^0x[0-9a-f]{100,}$/);
      expect(a.solcVersion).to.match(/^0\.8\.37\+/);
    }
  });

  it('names exports in camelCase, lowering acronyms', () => {
    expect(toIdentifierBase('DistributionCreator')).to.equal('distributionCreator');
    expect(toIdentifierBase('TestERC20')).to.equal('testErc20');
    expect(toIdentifierBase('Multicall3')).to.equal('multicall3');
  });

  it('fails with every compiler error when a source does not compile', function () {
    this.timeout(30_000);
    const dir = mkdtempSync(join(tmpdir(), 'contracts-build-'));
    try {
      writeFileSync(
        join(dir, 'Broken.sol'),
        'pragma solidity ^0.8.24;\ncontract Broken { function f() external { undefinedThing(); } }\n',
      );
      expect(() => compileContracts({ sourceDir: dir }))
        .to.throw(ContractsBuildError)
        .with.property('message')
        .that.matches(/Undeclared identifier/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
