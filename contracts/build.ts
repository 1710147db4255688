/**
 * Compiles contracts/src/*.sol offline with the bundled solc-js and writes reproducible artifacts:
 * `contracts/artifacts/<Name>.json` and a typed `contracts/artifacts/index.ts` (ABIs `as const`).
 *
 * Run: `npm run contracts:build` (or `npx tsx contracts/build.ts`). Exits non-zero on any compile error.
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import solc from 'solc';

/** Compiler version the committed artifacts were built with; a different solc would change bytecode. */
export const SOLC_VERSION = '0.8.37';

const contractsDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(contractsDir, '..');
const defaultSourceDir = join(contractsDir, 'src');
const defaultArtifactsDir = join(contractsDir, 'artifacts');

/** One deployable contract as written to `contracts/artifacts/<contractName>.json`. */
export type ContractArtifact = {
  contractName: string;
  abi: unknown[];
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
  solcVersion: string;
};

export type CompileContractsParams = { sourceDir?: string };
export type CompileContractsResult = { artifacts: ContractArtifact[]; warnings: string[] };

type SolcMessage = { severity: 'error' | 'warning' | 'info'; formattedMessage: string; message: string };
type SolcAstNode = { nodeType: string; name?: string; contractKind?: string; abstract?: boolean };
type SolcOutput = {
  errors?: SolcMessage[];
  sources?: Record<string, { ast: { nodes: SolcAstNode[] } }>;
  contracts?: Record<
    string,
    Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >;
};

/** Thrown when solc reports errors or the wrong compiler is installed. */
export class ContractsBuildError extends Error {
  override name = 'ContractsBuildError';
}

/**
 * Compiles every `.sol` file of `sourceDir` in one solc standard-JSON run (cancun, optimizer 200 runs,
 * no CBOR metadata so the bytecode does not depend on file paths or comments' hashes).
 * @param params.sourceDir defaults to `contracts/src`.
 * @returns one artifact per non-abstract `contract` (libraries and interfaces are skipped), sorted by name.
 * @throws ContractsBuildError with every formatted compiler error.
 */
export function compileContracts(params: CompileContractsParams = {}): CompileContractsResult {
  const sourceDir = params.sourceDir ?? defaultSourceDir;
  const version: string = solc.version();
  if (!version.startsWith(`${SOLC_VERSION}+`)) {
    throw new ContractsBuildError(`solc ${SOLC_VERSION} required, found ${version}`);
  }
  const files = readdirSync(sourceDir)
    .filter((f) => f.endsWith('.sol'))
    .sort();
  if (files.length === 0) throw new ContractsBuildError(`no .sol files in ${sourceDir}`);
  const sources: Record<string, { content: string }> = {};
  for (const file of files) sources[`contracts/src/${file}`] = { content: readFileSync(join(sourceDir, file), 'utf8') };

  const input = {
    language: 'Solidity',
    sources,
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: {
        '*': { '': ['ast'], '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] },
      },
    },
  };
  // Imports outside the compiled set are refused: the build must not depend on anything but contracts/src.
  const findImports = (path: string) => ({ error: `import not found (only contracts/src is compiled): ${path}` });
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as SolcOutput;

  const messages = output.errors ?? [];
  const errors = messages.filter((m) => m.severity === 'error');
  if (errors.length > 0) {
    throw new ContractsBuildError(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  }
  const warnings = messages.filter((m) => m.severity === 'warning').map((m) => m.formattedMessage);

  const artifacts: ContractArtifact[] = [];
  for (const [unit, byName] of Object.entries(output.contracts ?? {})) {
    const deployable = new Set(
      (output.sources?.[unit]?.ast.nodes ?? [])
        .filter((n) => n.nodeType === 'ContractDefinition' && n.contractKind === 'contract' && !n.abstract)
        .map((n) => n.name),
    );
    for (const [contractName, c] of Object.entries(byName)) {
      if (!deployable.has(contractName)) continue;
      artifacts.push({
        contractName,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        solcVersion: version,
      });
    }
  }
  artifacts.sort((a, b) => (a.contractName < b.contractName ? -1 : 1));
  const names = artifacts.map((a) => a.contractName);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate) throw new ContractsBuildError(`two contracts are named ${duplicate}`);
  return { artifacts, warnings };
}

/** `TestERC20` → `testErc20`, `DistributionCreator` → `distributionCreator`. */
export function toIdentifierBase(contractName: string): string {
  return contractName.replace(/[A-Z]+(?![a-z])|[A-Z]/g, (m: string, offset: number) =>
    offset === 0 ? m.toLowerCase() : m[0] + m.slice(1).toLowerCase(),
  );
}

/**
 * Renders the artifact files (path relative to the artifacts directory → content).
 * @returns `<Name>.json` per contract plus `index.ts` exporting `<name>Abi` (as const), `<name>Bytecode`
 *   and `<name>DeployedBytecode`.
 */
export function renderArtifacts(artifacts: ContractArtifact[]): Map<string, string> {
  const files = new Map<string, string>();
  const index: string[] = [
    '// Generated by contracts/build.ts from contracts/src. Do not edit; run `npm run contracts:build`.',
    '',
  ];
  for (const a of artifacts) {
    files.set(`${a.contractName}.json`, `${JSON.stringify(a, null, 2)}\n`);
    const base = toIdentifierBase(a.contractName);
    index.push(
      `export const ${base}Abi = ${JSON.stringify(a.abi, null, 2)} as const;`,
      '',
      `export const ${base}Bytecode = '${a.bytecode}' as const;`,
      '',
      `export const ${base}DeployedBytecode = '${a.deployedBytecode}' as const;`,
      '',
    );
  }
  index.push(`export const solcVersion = '${artifacts[0]?.solcVersion ?? ''}';`, '');
  files.set('index.ts', index.join('\n'));
  return files;
}

export type BuildContractsParams = { sourceDir?: string; artifactsDir?: string };
export type BuildContractsResult = { written: string[]; unchanged: string[]; removed: string[]; warnings: string[] };

/**
 * Compiles and writes the artifacts, rewriting only files whose content changed and removing stale
 * `.json` artifacts of contracts that no longer exist.
 */
export function buildContracts(params: BuildContractsParams = {}): BuildContractsResult {
  const artifactsDir = params.artifactsDir ?? defaultArtifactsDir;
  const { artifacts, warnings } = compileContracts({ sourceDir: params.sourceDir });
  const files = renderArtifacts(artifacts);
  mkdirSync(artifactsDir, { recursive: true });
  const result: BuildContractsResult = { written: [], unchanged: [], removed: [], warnings };
  for (const [name, content] of files) {
    const path = join(artifactsDir, name);
    if (existsSync(path) && readFileSync(path, 'utf8') === content) {
      result.unchanged.push(name);
      continue;
    }
    writeFileSync(path, content);
    result.written.push(name);
  }
  for (const name of readdirSync(artifactsDir)) {
    if (name.endsWith('.json') && !files.has(name)) {
      rmSync(join(artifactsDir, name));
      result.removed.push(name);
    }
  }
  return result;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  try {
    const started = Date.now();
    const result = buildContracts();
    for (const w of result.warnings) console.warn(w);
    const rel = (n: string) => `${join(defaultArtifactsDir, n).slice(repoRoot.length + 1)}`;
    console.log(
      JSON.stringify({
        msg: 'contracts built',
        written: result.written.map(rel),
        unchanged: result.unchanged.length,
        removed: result.removed.map(rel),
        duration_ms: Date.now() - started,
      }),
    );
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
