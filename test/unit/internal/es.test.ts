import { errors as esErrors } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { createServer } from 'node:net';
import { createEsClient, esRetryBackoffSeconds } from '../../../internal/es.js';

describe('createEsClient', () => {
  it('waits 20–50 ms before its one retry', () => {
    for (let i = 0; i < 100; i++) expect(esRetryBackoffSeconds()).to.be.within(0.02, 0.05);
  });

  it('fails a request to a stopped cluster in well under 200 ms (refused, retried once)', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const es = createEsClient({ node: `http://127.0.0.1:${port}`, requestTimeoutMs: 2000 });
    try {
      const t0 = performance.now();
      const error = await es.search({ index: 'x' }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(esErrors.ConnectionError);
      expect(performance.now() - t0).to.be.below(200);
    } finally {
      await es.close();
    }
  });
});
