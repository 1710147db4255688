import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

/** The production folders (as boundaries.test.ts). */
const PRODUCTION = ['api', 'indexer', 'jobs', 'domain', 'internal', 'sql', 'search-mappings'];
/** The one module that writes documents: bulkWrite, which the projector and the reindex call. */
const DOCUMENT_WRITER = 'domain/projection/publish.ts';
/** Methods of the Elasticsearch client that write or delete documents (its `indices` namespace manages indices). */
const WRITE_METHODS = new Set([
  'index',
  'create',
  'update',
  'bulk',
  'delete',
  'updateByQuery',
  'deleteByQuery',
  'reindex',
]);
const BULK_WRITE = new Set(['bulkWrite']);
/** Where those methods are declared: the client's top-level API, and its bulk helper (node_modules may be a link). */
const CLIENT_DECLARATIONS = ['/@elastic/elasticsearch/lib/api/index.d.ts', '/@elastic/elasticsearch/lib/helpers.d.ts'];

const declaredIn = (symbol: ts.Symbol, isFile: (path: string) => boolean) =>
  (symbol.declarations ?? []).some((d) => isFile(resolve(d.getSourceFile().fileName)));
const isClientWrite = (symbol: ts.Symbol) =>
  WRITE_METHODS.has(symbol.name) && declaredIn(symbol, (path) => CLIENT_DECLARATIONS.some((d) => path.endsWith(d)));
const isBulkWrite = (symbol: ts.Symbol) =>
  symbol.name === 'bulkWrite' && declaredIn(symbol, (path) => path === resolve(DOCUMENT_WRITER));

/**
 * Issue 47, "Elasticsearch has one writer path per document kind": campaign and opportunity documents
 * are written only by the projector (domain/projection/: the outbox drain, a back-office write's
 * publishOutboxNow, a privacy change's projectDocumentsNow) and the reindex, all through bulkWrite, so
 * a document is always built whole from PostgreSQL (under the projector's per-document locks); no
 * module patches one on the side. Type-aware, as the client arrives in deps, not by import: a method
 * reached by property access, destructuring or an imported name counts.
 */
describe('architecture: search documents have one writer path (the projector)', function () {
  this.timeout(180_000);
  let files: string[];
  let program: ts.Program;

  /**
   * Each use in `within` of a symbol `matches` accepts: `file:line: text`. Only the identifiers that can
   * name such a symbol are resolved (those spelled as one of `names`, and the local names a file imports
   * them under): the checker then resolves what those uses need, not every identifier of every module.
   */
  function usesOf(within: string[], names: ReadonlySet<string>, matches: (symbol: ts.Symbol) => boolean): string[] {
    const checker = program.getTypeChecker();
    const uses: string[] = [];
    for (const file of within) {
      const source = program.getSourceFile(file)!;
      const spelled = new Set(names);
      source.forEachChild((statement) => {
        if (!ts.isImportDeclaration(statement)) return;
        const bindings = statement.importClause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings))
          for (const element of bindings.elements)
            if (names.has((element.propertyName ?? element.name).text)) spelled.add(element.name.text);
      });
      const visit = (node: ts.Node): void => {
        let symbol: ts.Symbol | undefined;
        if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
          const name = node.propertyName ?? node.name;
          if ((ts.isIdentifier(name) || ts.isStringLiteral(name)) && spelled.has(name.text))
            symbol = checker.getTypeAtLocation(node.parent).getProperty(name.text);
        } else if (ts.isIdentifier(node) && spelled.has(node.text) && !ts.isBindingElement(node.parent)) {
          symbol = checker.getSymbolAtLocation(node);
          if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
        }
        if (symbol && matches(symbol)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          uses.push(`${file}:${line + 1}: ${node.parent.getText().slice(0, 60)}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    return uses;
  }

  before(() => {
    files = execFileSync('git', ['ls-files', ...PRODUCTION], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'));
    const { config } = ts.readConfigFile('tsconfig.json', ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, '.');
    program = ts.createProgram(files, { ...options, noEmit: true });
  });

  it(`calls the Elasticsearch client's document writes only in ${DOCUMENT_WRITER}`, () => {
    expect(files.length).to.be.greaterThan(250);
    expect(
      usesOf(
        files.filter((f) => f !== DOCUMENT_WRITER),
        WRITE_METHODS,
        isClientWrite,
      ),
    ).to.deep.equal([]);
    // The check sees the one write it allows (bulkWrite's es.bulk).
    expect(usesOf([DOCUMENT_WRITER], WRITE_METHODS, isClientWrite)).to.have.length(1);
  });

  it('leaves bulkWrite to the projector and the reindex: no API module calls it', () => {
    expect(
      usesOf(
        files.filter((f) => f.startsWith('api/')),
        BULK_WRITE,
        isBulkWrite,
      ),
    ).to.deep.equal([]);
    expect(
      usesOf(['domain/projection/projectBatch.ts'], BULK_WRITE, isBulkWrite),
      'the check sees the projector call it',
    ).to.not.be.empty;
  });
});
