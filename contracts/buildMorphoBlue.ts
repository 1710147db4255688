/**
 * Compiles the real Morpho Blue (`@morpho-org/morpho-blue` 1.0.0: src/Morpho.sol and its IrmMock and
 * OracleMock) offline with the bundled solc-js, for the devnets, and writes
 * `contracts/artifacts/morpho-blue/<Name>.json` plus a typed `index.ts` (ABIs `as const`).
 *
 * Morpho.sol pins `pragma solidity 0.8.19`, which the bundled solc (contracts/build.ts SOLC_VERSION)
 * refuses; the pragma is widened to `^0.8.19` in memory, nothing else of the sources changes.
 * Run: `npx tsx contracts/buildMorphoBlue.ts`.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import solc from 'solc';
import { ContractsBuildError, renderArtifacts, SOLC_VERSION, type ContractArtifact } from './build.js';

const require = createRequire(import.meta.url);
const packageSrc = join(dirname(require.resolve('@morpho-org/morpho-blue/package.json')), 'src');
const artifactsDir = join(dirname(fileURLToPath(import.meta.url)), 'artifacts', 'morpho-blue');
const ENTRIES = { 'Morpho.sol': 'Morpho', 'mocks/IrmMock.sol': 'IrmMock', 'mocks/OracleMock.sol': 'OracleMock' };

const read = (path: string) =>
  readFileSync(join(packageSrc, path), 'utf8').replace(/pragma solidity 0\.8\.19;/, 'pragma solidity ^0.8.19;');

/** Compiles the three contracts (cancun, optimizer 200 runs as Morpho ships, no CBOR metadata). */
export function compileMorphoBlue(): ContractArtifact[] {
  const version: string = solc.version();
  if (!version.startsWith(`${SOLC_VERSION}+`))
    throw new ContractsBuildError(`solc ${SOLC_VERSION} required, found ${version}`);
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.keys(ENTRIES).map((p) => [p, { content: read(p) }])),
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 999999 },
      viaIR: false,
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  // Imports resolve inside the package's src only.
  const findImports = (path: string) => {
    const p = normalize(path);
    return p.startsWith('..') ? { error: `outside morpho-blue/src: ${path}` } : { contents: read(p) };
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<
      string,
      Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
    >;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new ContractsBuildError(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  return Object.entries(ENTRIES)
    .map(([unit, name]) => {
      const c = output.contracts[unit]![name]!;
      return {
        contractName: name,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}` as const,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}` as const,
        solcVersion: version,
      };
    })
    .sort((a, b) => (a.contractName < b.contractName ? -1 : 1));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  mkdirSync(artifactsDir, { recursive: true });
  for (const [name, content] of renderArtifacts(compileMorphoBlue())) writeFileSync(join(artifactsDir, name), content);
  console.log(JSON.stringify({ msg: 'morpho-blue built', dir: 'contracts/artifacts/morpho-blue' }));
}
