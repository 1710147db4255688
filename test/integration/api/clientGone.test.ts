import { expect } from 'chai';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { eventually } from '../../helpers/eventually.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

/**
 * Issue 44: a client that disconnects while a large answer is streamed (compressed) was logged as a
 * level-50 error ("Premature close"): an operator paging on errors was woken by every closed tab.
 */
describe('a client closing its connection mid-answer is logged as info, not as an error', function () {
  let h: Harness;
  let server: Server;
  const lines: { level: number; msg: string; err?: { message?: string } }[] = [];

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
    server = h.createApp({ logger }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });

  after(async function () {
    server?.close();
    await h?.close();
  });

  /** Reads the first chunk of `path`'s gzip answer, then destroys the connection; resolves once the server logged it. */
  async function readAndHangUp(path: string): Promise<void> {
    const { port } = server.address() as AddressInfo;
    const before = lines.length;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': 'gzip' } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    });
    await eventually(() => lines.slice(before).some((l) => l.msg !== 'request' && l.level >= 30), {
      timeoutMs: 10_000,
      what: 'the hang-up logged',
    });
  }

  // (/metrics serves one body a second from memory since #43 F7: no stream to break.)
  for (const path of ['/v4/openapi.json'])
    it(`GET ${path}: the hang-up is an info line naming it, never level 50`, async function () {
      const before = lines.length;
      await readAndHangUp(path);
      const logged = lines.slice(before).filter((l) => l.msg !== 'request');
      expect(logged.filter((l) => l.level >= 50).map((l) => `${l.msg}: ${l.err?.message}`)).to.deep.equal([]);
      expect(logged.map((l) => [l.level, l.msg])).to.deep.include([
        30,
        'client closed the connection before the answer was sent',
      ]);
    });
});
