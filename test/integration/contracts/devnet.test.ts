import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import {
  DevnetError,
  findFreePort,
  isRpcUp,
  jsonRpc,
  startDevnet,
  startDevnetOnFreePort,
} from '../../../contracts/devnet.js';
import { getLatestTimestamp, mine, revert, setNextBlockTimestamp, snapshot } from '../../../contracts/time.js';
import type { Devnet } from '../../../contracts/devnet.js';

describe('contracts/devnet', function () {
  this.timeout(60_000);
  let devnet: Devnet | undefined;
  let logDir: string;

  before(() => {
    logDir = mkdtempSync(join(tmpdir(), 'devnet-log-'));
  });

  after(async () => {
    await devnet?.stop();
    rmSync(logDir, { recursive: true, force: true });
  });

  it('starts a node with the requested chain id on 127.0.0.1, logging to a file', async () => {
    const port = await findFreePort();
    expect(port).to.be.within(18600, 18699);
    const logFile = join(logDir, 'node.log');
    devnet = await startDevnet({ chainId: 31339, port, logFile });
    expect(devnet.rpcUrl).to.equal(`http://127.0.0.1:${port}`);
    expect(await isRpcUp(devnet.rpcUrl)).to.equal(31339);
    expect(existsSync(logFile)).to.equal(true);
  });

  it('refuses a port that already serves JSON-RPC', async () => {
    let error: unknown;
    try {
      await startDevnet({ chainId: 31340, port: devnet!.port });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(DevnetError);
    expect(await isRpcUp(devnet!.rpcUrl)).to.equal(31339);
  });

  it('snapshot/revert and mine/setNextBlockTimestamp drive the chain', async () => {
    const rpcUrl = devnet!.rpcUrl;
    const id = await snapshot({ rpcUrl });
    const start = await getLatestTimestamp({ rpcUrl });
    await mine({ rpcUrl, blocks: 3 });
    await setNextBlockTimestamp({ rpcUrl, timestamp: start + 1000 });
    await mine({ rpcUrl });
    expect(await getLatestTimestamp({ rpcUrl })).to.equal(start + 1000);
    await mine({ rpcUrl, timestamp: start + 5000, blocks: 2 });
    expect(await getLatestTimestamp({ rpcUrl })).to.equal(start + 5001);
    expect(Number(await jsonRpc<string>(rpcUrl, 'eth_blockNumber'))).to.equal(6);
    expect(await revert({ rpcUrl, id })).to.equal(true);
    expect(Number(await jsonRpc<string>(rpcUrl, 'eth_blockNumber'))).to.equal(0);
  });

  it('stop() kills the node, is idempotent, and flushes the log', async () => {
    await devnet!.stop();
    await devnet!.stop();
    expect(await isRpcUp(devnet!.rpcUrl)).to.equal(false);
    expect(readFileSync(join(logDir, 'node.log'), 'utf8')).to.match(/Started HTTP and WebSocket JSON-RPC server/);
  });

  it('reports a node that dies at startup with the tail of its output', async () => {
    const port = await findFreePort();
    // A plain TCP listener: it accepts connections but never answers JSON-RPC.
    const sockets = new Set<Socket>();
    const blocker = createServer((socket) => sockets.add(socket));
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', r));
    try {
      let error: unknown;
      try {
        await startDevnet({ chainId: 31341, port });
      } catch (err) {
        error = err;
      }
      expect(error).to.be.instanceOf(DevnetError);
      expect((error as Error).message)
        .to.match(/process died/)
        .and.match(/EADDRINUSE|address already in use/i);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => blocker.close(r));
    }
  });

  it('tries another port when the chosen one is taken before the node binds it (startDevnetOnFreePort)', async () => {
    const taken = await findFreePort();
    // Taken between the probe and the bind, as another process starting a devnet at the same moment would.
    const sockets = new Set<Socket>();
    const blocker = createServer((socket) => sockets.add(socket));
    await new Promise<void>((r) => blocker.listen(taken, '127.0.0.1', r));
    const tried: number[] = [];
    let next: Devnet | undefined;
    try {
      next = await startDevnetOnFreePort({
        chainId: 31342,
        nextPort: async () => {
          const port = tried.length ? await findFreePort() : taken;
          tried.push(port);
          return port;
        },
      });
      expect(tried).to.have.length(2);
      expect(tried[0]).to.equal(taken);
      expect(next.port).to.equal(tried[1]);
      expect(await isRpcUp(next.rpcUrl)).to.equal(31342);
    } finally {
      await next?.stop();
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => blocker.close(r));
    }
  });

  it('gives up on any other startup failure at once', async () => {
    let calls = 0;
    let error: unknown;
    try {
      await startDevnetOnFreePort({ chainId: 31343, timeoutMs: 1, nextPort: async () => (calls++, findFreePort()) });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(DevnetError);
    expect((error as Error).message).to.match(/no eth_chainId answer within 1 ms/);
    expect(calls).to.equal(1);
  });
});
