import { expect } from 'chai';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createRewardTreeSource,
  RewardTreeFetchError,
  RewardTreeSourceError,
} from '../../../../indexer/fetch/createRewardTreeSource.js';
import { RewardTreeFormatError, type RewardTreeFile } from '../../../../indexer/decode/parseRewardTree.js';
import { writeRewardTree } from '../../../../contracts/rewardTrees/writeRewardTree.js';
import { startTreeServer, type TreeServer } from '../../../helpers/treeServer.js';

const ROOT = '0x11fdcd9ebf942d9adcbc959f258b9e7d261b064ba41ce68d3c7ecee547d5f85e';
const TREE: RewardTreeFile = {
  root: ROOT,
  chainId: 31337,
  rewards: [
    {
      recipient: `0x${'a'.repeat(40)}`,
      token: `0x${'2'.repeat(40)}`,
      amount: '1000',
      breakdowns: [{ campaignId: '0x01', reason: '', amount: '1000' }],
    },
  ],
};

async function thrownBy(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('indexer/fetch/createRewardTreeSource', function () {
  describe('http(s) URL template', () => {
    let server: TreeServer;
    const fast = { retries: 2, retryDelayMs: 10, timeoutMs: 500 };

    beforeEach(async () => {
      server = await startTreeServer();
    });
    afterEach(async () => server.close());

    it('fetches /<chainId>/<root>.json (root lower-cased) and returns the parsed tree', async () => {
      server.publish(31337, ROOT, TREE);
      const source = createRewardTreeSource(server.urlTemplate, fast);
      expect(source.kind).to.equal('http');
      expect(await source.fetchTree({ chainId: 31337, root: ROOT.toUpperCase().replace('0X', '0x') })).to.deep.equal(
        TREE,
      );
      expect(server.requests).to.deep.equal([`/trees/31337/${ROOT}.json`]);
    });

    it('returns null on 404 without retrying', async () => {
      const source = createRewardTreeSource(server.urlTemplate, fast);
      expect(await source.fetchTree({ chainId: 31337, root: ROOT })).to.equal(null);
      expect(server.requests).to.have.length(1);
    });

    it('retries 503 and 429 with backoff and succeeds within the bound', async () => {
      server.publish(31337, ROOT, TREE);
      server.failNext(1, 503);
      server.failNext(1, 429);
      const source = createRewardTreeSource(server.urlTemplate, fast);
      expect(await source.fetchTree({ chainId: 31337, root: ROOT })).to.deep.equal(TREE);
      expect(server.requests).to.have.length(3);
    });

    it('gives up after the bounded retries with a retryable RewardTreeFetchError', async () => {
      server.publish(31337, ROOT, TREE);
      server.failNext(10, 502);
      const error = await thrownBy(
        createRewardTreeSource(server.urlTemplate, fast).fetchTree({ chainId: 31337, root: ROOT }),
      );
      expect(error).to.be.instanceOf(RewardTreeFetchError);
      expect((error as RewardTreeFetchError).retryable).to.equal(true);
      expect((error as Error).message).to.match(/HTTP 502/);
      expect(server.requests).to.have.length(3);
    });

    it('does not retry another 4xx', async () => {
      server.failNext(1, 403);
      const error = await thrownBy(
        createRewardTreeSource(server.urlTemplate, fast).fetchTree({ chainId: 31337, root: ROOT }),
      );
      expect(error).to.be.instanceOf(RewardTreeFetchError).with.property('retryable', false);
      expect(server.requests).to.have.length(1);
    });

    it('times out a slow answer and retries it', async () => {
      server.publish(31337, ROOT, TREE);
      server.delayNext(1, 1000);
      const source = createRewardTreeSource(server.urlTemplate, { retries: 1, retryDelayMs: 10, timeoutMs: 200 });
      const started = Date.now();
      expect(await source.fetchTree({ chainId: 31337, root: ROOT })).to.deep.equal(TREE);
      expect(Date.now() - started).to.be.lessThan(900);
      expect(server.requests).to.have.length(2);
    });

    it('refuses a document that is not JSON, or the tree of another root, with a RewardTreeFormatError', async () => {
      const source = createRewardTreeSource(server.urlTemplate, fast);
      server.publish(31337, ROOT, '<html>oops</html>');
      expect(await thrownBy(source.fetchTree({ chainId: 31337, root: ROOT }))).to.be.instanceOf(RewardTreeFormatError);
      const other = `0x${'ab'.repeat(32)}`;
      server.publish(31337, other, TREE);
      const error = await thrownBy(source.fetchTree({ chainId: 31337, root: other }));
      expect(error).to.be.instanceOf(RewardTreeFormatError);
      expect((error as Error).message).to.match(/holds the tree of chain 31337 root 0x11fd/);
    });

    it('refuses a template without {chainId} and {root}', () => {
      expect(() => createRewardTreeSource('https://trees.invalid/{root}.json')).to.throw(
        RewardTreeSourceError,
        /\{chainId\} and \{root\}/,
      );
    });

    it('reports a refused connection as a retryable error after its retries', async () => {
      const template = server.urlTemplate;
      await server.close();
      const error = await thrownBy(createRewardTreeSource(template, fast).fetchTree({ chainId: 31337, root: ROOT }));
      expect(error).to.be.instanceOf(RewardTreeFetchError).with.property('retryable', true);
      server = await startTreeServer();
    });
  });

  describe('directory', () => {
    let dir: string;

    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'reward-trees-'));
    });
    afterEach(async () => rm(dir, { recursive: true, force: true }));

    it('reads <dir>/<chainId>/<root>.json written by writeRewardTree', async () => {
      const file = await writeRewardTree(dir, TREE);
      expect(file).to.equal(join(dir, '31337', `${ROOT}.json`));
      const source = createRewardTreeSource(dir);
      expect(source).to.include({ kind: 'directory', location: dir });
      expect(await source.fetchTree({ chainId: 31337, root: ROOT })).to.deep.equal(TREE);
    });

    it('accepts a file: URL', async () => {
      await writeRewardTree(dir, TREE);
      expect(
        await createRewardTreeSource(pathToFileURL(dir).href).fetchTree({ chainId: 31337, root: ROOT }),
      ).to.deep.equal(TREE);
    });

    it('returns null for a missing file or chain directory', async () => {
      await writeRewardTree(dir, TREE);
      const source = createRewardTreeSource(dir);
      expect(await source.fetchTree({ chainId: 31337, root: `0x${'ab'.repeat(32)}` })).to.equal(null);
      expect(await source.fetchTree({ chainId: 1, root: ROOT })).to.equal(null);
    });

    it('refuses an invalid document with a RewardTreeFormatError naming the field', async () => {
      await mkdir(join(dir, '31337'));
      await writeFile(
        join(dir, '31337', `${ROOT}.json`),
        JSON.stringify({ ...TREE, rewards: [{ ...TREE.rewards[0], amount: 1000 }] }),
      );
      const error = await thrownBy(createRewardTreeSource(dir).fetchTree({ chainId: 31337, root: ROOT }));
      expect(error).to.be.instanceOf(RewardTreeFormatError);
      expect((error as Error).message).to.match(/\/rewards\/0\/amount/);
    });
  });
});
