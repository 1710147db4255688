import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWeb } from '../../web/build.js';
import { createReferenceDemo, type ReferenceDemo } from '../integration/api/referenceDemo.js';

export type DemoWebServer = { demo: ReferenceDemo; dist: string; base: string; close(): Promise<void> };

/**
 * The seeded reference demo served with freshly built pages over a real socket (test config, so no
 * rate limit in the way), with a job runner for the ops page's "Run now": what the browser suites
 * open. `close` stops the server and the demo (its runner with it).
 */
export async function startDemoWebServer(): Promise<DemoWebServer> {
  const demo = await createReferenceDemo();
  const dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
  let server: Server | undefined;
  try {
    await buildWeb({ outDir: dist });
    const { h } = demo;
    await h.startJobRunner(); // the ops page's "Run now" is answered by a job runner, as under npm start
    server = h
      .createApp({
        webDist: dist,
      })
      .listen(0, '127.0.0.1');
    await new Promise((resolve) => server!.once('listening', resolve));
  } catch (error) {
    rmSync(dist, { recursive: true, force: true });
    await demo.close();
    throw error;
  }
  return {
    demo,
    dist,
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    async close() {
      // Open event streams (a page's EventSource) would hold close() forever.
      server!.closeAllConnections();
      await new Promise((resolve) => server!.close(resolve));
      rmSync(dist, { recursive: true, force: true });
      await demo.close();
    },
  };
}
