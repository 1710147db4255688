import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderArtifacts } from '../../../contracts/build.js';
import { compileMorphoBlue } from '../../../contracts/buildMorphoBlue.js';

const artifactsDir = join(dirname(fileURLToPath(import.meta.url)), '../../../contracts/artifacts/morpho-blue');

describe('contracts/buildMorphoBlue', function () {
  this.timeout(120_000);

  it('the committed Morpho Blue artifacts are what the installed package compiles to', () => {
    const artifacts = compileMorphoBlue();
    expect(artifacts.map((a) => a.contractName)).to.deep.equal(['IrmMock', 'Morpho', 'OracleMock']);
    const files = renderArtifacts(artifacts);
    expect([...files.keys()].sort()).to.deep.equal(readdirSync(artifactsDir).sort());
    for (const [name, content] of files)
      expect(
        readFileSync(join(artifactsDir, name), 'utf8'),
        `${name} differs: run npx tsx contracts/buildMorphoBlue.ts`,
      ).to.equal(content);
    // EIP-170: deployable on a devnet without allowUnlimitedContractSize.
    expect((artifacts.find((a) => a.contractName === 'Morpho')!.deployedBytecode.length - 2) / 2).to.be.below(24_576);
  });
});
