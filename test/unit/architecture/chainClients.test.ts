import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

/** Where a ChainClient (internal/rpc.ts) is declared: its `client` is the indexer's unbounded viem client. */
const RPC_MODULE = resolve('internal/rpc.ts');

/** Whether `symbol` is the `client` property of ChainClient. */
function isChainClientProperty(symbol: ts.Symbol | undefined): boolean {
  return (
    symbol?.name === 'client' &&
    (symbol.declarations ?? []).some((d) => resolve(d.getSourceFile().fileName) === RPC_MODULE)
  );
}

/**
 * Every chain call a request causes goes through api/chain/ (readChain: gas per call, a per-request
 * budget, one deadline, the per-chain gate; docs/api-behaviour.md#bounded-chain-reads): no API module
 * outside it touches a ChainClient's `client`, by property access or destructuring. A type-aware
 * check, as dependency-cruiser sees imports only (the clients arrive in deps, not by import).
 */
describe('architecture: only api/chain/ calls the chains (bounded chain reads)', function () {
  this.timeout(120_000);

  it('finds no use of a ChainClient client in api/ outside api/chain/', () => {
    const files = execFileSync('git', ['ls-files', 'api'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'));
    const { config } = ts.readConfigFile('tsconfig.json', ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, '.');
    const program = ts.createProgram(files, { ...options, noEmit: true });
    const checker = program.getTypeChecker();
    const uses: string[] = [];
    for (const file of files.filter((f) => !f.startsWith('api/chain/'))) {
      const source = program.getSourceFile(file)!;
      const visit = (node: ts.Node): void => {
        let symbol: ts.Symbol | undefined;
        if (ts.isPropertyAccessExpression(node) && node.name.text === 'client')
          symbol = checker.getSymbolAtLocation(node.name);
        else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
          const name = (node.propertyName ?? node.name) as ts.Identifier;
          if (name.text === 'client') symbol = checker.getTypeAtLocation(node.parent).getProperty('client');
        }
        if (isChainClientProperty(symbol)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          uses.push(`${file}:${line + 1}: ${node.getText().slice(0, 60)}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(files.length).to.be.greaterThan(100);
    expect(uses).to.deep.equal([]);
  });
});
