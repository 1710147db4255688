import { expect } from 'chai';
import { createServer } from 'node:net';
import { createEsClient } from '../../../internal/es.js';
import { TEST_ES_URL } from '../../helpers/testConfig.js';

/** A loopback port nothing listens on (bound, then released): connections to it are refused. */
async function refusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('internal/es: several nodes (ES_URL comma-separated)', () => {
  it('answers every request while two of the three nodes listed refuse connections', async () => {
    const dead = [await refusedPort(), await refusedPort()].map((p) => `http://127.0.0.1:${p}`);
    // The live node last, so round-robin starts on dead ones and every request needs the failover.
    const es = createEsClient({ node: `${dead[0]}, ${dead[1]},${TEST_ES_URL}`, requestTimeoutMs: 5000 });
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, () => es.cluster.health().then((h) => h.status)));
      expect(answers.filter((s) => s === 'green' || s === 'yellow')).to.have.length(30);
      expect(es.connectionPool.size).to.equal(3);
    } finally {
      await es.close();
    }
  });

  it('with sniffing on, replaces the configured nodes by those the cluster publishes (a node gone from it is dropped)', async () => {
    const dead = `http://127.0.0.1:${await refusedPort()}`;
    const es = createEsClient({ node: `${dead},${TEST_ES_URL}`, requestTimeoutMs: 5000, sniffIntervalMs: 60_000 });
    try {
      const sniffed = new Promise<string[]>((resolve, reject) =>
        es.diagnostic.on('sniff', (err, result) =>
          err ? reject(err) : resolve((result?.meta.sniff?.hosts ?? []).map((h) => h.url.origin)),
        ),
      );
      const published = (await es.nodes.info({ filter_path: 'nodes.*.http.publish_address' })) as unknown as {
        nodes: Record<string, { http: { publish_address: string } }>;
      };
      const expected = Object.values(published.nodes).map((n) => `http://${n.http.publish_address.split('/').pop()}`);
      expect(await sniffed).to.have.members(expected);
      expect(es.connectionPool.connections.map((c) => c.url.origin)).to.have.members(expected);
    } finally {
      await es.close();
    }
  });
});
